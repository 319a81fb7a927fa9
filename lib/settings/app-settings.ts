import "server-only";
import { z } from "zod";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { administrationPermission, type TPermission } from "@/lib/auth/permissions";
import { db, inTransaction } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";

export const ZTwoFactorRequirement = z.enum(["off", "admins", "everyone"]);
export type TTwoFactorRequirement = z.infer<typeof ZTwoFactorRequirement>;

// Per person and São Paulo day, Pix refunds and card cancels together; 0 turns it off.
export const ZDailyMoneyReturnLimitCents = z.number().int().min(0).max(10_000_000_000);

const appSettings = {
  twoFactorRequirement: { schema: ZTwoFactorRequirement, defaultValue: "off" as TTwoFactorRequirement },
  dailyMoneyReturnLimitCents: { schema: ZDailyMoneyReturnLimitCents, defaultValue: 1_000_000 },
} as const;

export type TAppSettingKey = keyof typeof appSettings;
export type TAppSettingValue<TKey extends TAppSettingKey> = z.infer<(typeof appSettings)[TKey]["schema"]>;

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
): Promise<void> {
  const parsed = appSettings[key].schema.parse(value) as Prisma.InputJsonValue;
  const before = await getAppSetting(key);
  const updatedById = context.actor?.id ?? null;
  await inTransaction(async (tx) => {
    await tx.appSetting.upsert({
      where: { key },
      create: { key, value: parsed, updatedById },
      update: { value: parsed, updatedById },
    });
    await recordAudit(
      {
        actor: context.actor,
        action: "settings.changed",
        resourceType: "setting",
        resourceId: key,
        ip: context.ip,
        userAgent: context.userAgent,
        metadata: { key, before, after: parsed },
      },
      tx,
    );
  });
}

// "admins" are whoever may manage people and roles.
export function isTwoFactorRequiredFor(requirement: TTwoFactorRequirement, held: readonly TPermission[]): boolean {
  return requirement === "everyone" || (requirement === "admins" && held.includes(administrationPermission));
}
