import "server-only";
import { z } from "zod";
import type { TAuditAction } from "@/lib/audit/audit-actions";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { administrationPermission, type TPermission } from "@/lib/auth/permissions";
import { db, inTransaction } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emptySsoSettings, ssoSettingsView, ZStoredSsoSettings } from "@/lib/sso/settings-schema";

export const ZTwoFactorRequirement = z.enum(["off", "admins", "everyone"]);
export type TTwoFactorRequirement = z.infer<typeof ZTwoFactorRequirement>;

// Per person and São Paulo day, Pix refunds and card cancels together; 0 turns it off.
export const ZDailyMoneyReturnLimitCents = z.number().int().min(0).max(10_000_000_000);

// `audit`: the action a change is recorded as (settings.changed without it) and how a value shows in it.
type TAppSettingEntry<T> = {
  schema: z.ZodType<T>;
  defaultValue: T;
  audit?: { action: TAuditAction; view: (value: T) => Prisma.InputJsonValue };
};

const defineAppSetting = <T>(entry: TAppSettingEntry<T>) => entry;

const appSettings = {
  twoFactorRequirement: defineAppSetting<TTwoFactorRequirement>({ schema: ZTwoFactorRequirement, defaultValue: "off" }),
  dailyMoneyReturnLimitCents: defineAppSetting({ schema: ZDailyMoneyReturnLimitCents, defaultValue: 1_000_000 }),
  sso: defineAppSetting({
    schema: ZStoredSsoSettings,
    defaultValue: emptySsoSettings,
    audit: { action: "sso.settings_changed", view: ssoSettingsView },
  }),
};

export type TAppSettingKey = keyof typeof appSettings;
export type TAppSettingValue<TKey extends TAppSettingKey> = (typeof appSettings)[TKey]["defaultValue"];

// A stored value the schema no longer accepts (a renamed option) falls back to the default, never breaks a page.
export function readAppSetting<TKey extends TAppSettingKey>(key: TKey, stored: unknown): TAppSettingValue<TKey> {
  const { schema, defaultValue } = appSettings[key];
  const parsed = schema.safeParse(stored);
  // Generic over the registry, which TypeScript cannot narrow per key.
  return (parsed.success ? parsed.data : defaultValue) as TAppSettingValue<TKey>;
}

export async function getAppSetting<TKey extends TAppSettingKey>(key: TKey): Promise<TAppSettingValue<TKey>> {
  const row = await db.appSetting.findUnique({ where: { key } });
  return readAppSetting(key, row?.value);
}

export async function setAppSetting<TKey extends TAppSettingKey>(
  key: TKey,
  value: TAppSettingValue<TKey>,
  context: TChangeContext,
  detail: Record<string, unknown> = {},
): Promise<void> {
  const entry = appSettings[key] as TAppSettingEntry<unknown>;
  const parsed = entry.schema.parse(value);
  const view = entry.audit?.view ?? ((stored: unknown) => stored as Prisma.InputJsonValue);
  const before = await getAppSetting(key);
  const updatedById = context.actor?.id ?? null;
  await inTransaction(async (tx) => {
    const stored = parsed as Prisma.InputJsonValue;
    await tx.appSetting.upsert({
      where: { key },
      create: { key, value: stored, updatedById },
      update: { value: stored, updatedById },
    });
    await recordAudit(
      {
        actor: context.actor,
        action: entry.audit?.action ?? "settings.changed",
        resourceType: "setting",
        resourceId: key,
        ip: context.ip,
        userAgent: context.userAgent,
        metadata: { key, before: view(before), after: view(parsed), ...detail },
      },
      tx,
    );
  });
}

// "admins" are whoever may manage people and roles.
export function isTwoFactorRequiredFor(requirement: TTwoFactorRequirement, held: readonly TPermission[]): boolean {
  return requirement === "everyone" || (requirement === "admins" && held.includes(administrationPermission));
}
