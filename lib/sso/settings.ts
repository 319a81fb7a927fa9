import "server-only";
import { z } from "zod";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { ownerRoleId } from "@/lib/auth/roles";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { assertMayGrant, findRole, isAdministrationRole } from "@/lib/users/roles";

const settingKey = "sso";
const secretPurpose = "sso-client-secret";

const ZDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: "invalidDomain" });

const ZGroupRole = z.object({
  group: z.string().trim().min(1, { error: "groupRequired" }).max(200),
  roleId: z.string().min(1, { error: "roleRequired" }).max(64),
});

// Plain http only on loopback, for a provider under test; a real issuer is https.
const ZIssuerUrl = z
  .string()
  .trim()
  .max(500)
  .refine((value) => {
    const url = URL.parse(value);
    if (!url || url.search || url.hash) return false;
    return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
  }, "invalidIssuer");

export const ZSsoSettingsInput = z.object({
  isEnabled: z.boolean(),
  issuerUrl: ZIssuerUrl,
  clientId: z.string().trim().min(1, { error: "clientIdRequired" }).max(200),
  // Empty keeps the stored secret: the browser never receives it back.
  clientSecret: z.string().max(500).default(""),
  groupsClaim: z.string().trim().min(1, { error: "groupsClaimRequired" }).max(100),
  groupRoles: z.array(ZGroupRole).max(100),
  defaultRoleId: z.string().min(1).max(64).nullable(),
  allowedDomains: z.array(ZDomain).max(100),
  ssoOnlyDomains: z.array(ZDomain).max(100),
  breakGlassOwnerId: z.uuid({ error: "breakGlassNotOwner" }).nullable(),
  requireVerifiedEmail: z.boolean(),
});
export type TSsoSettingsInput = z.input<typeof ZSsoSettingsInput>;

const ZStoredSsoSettings = ZSsoSettingsInput.omit({ clientSecret: true }).extend({
  issuerUrl: z.string(),
  clientSecretBox: z.string().nullable(),
});
type TStoredSsoSettings = z.infer<typeof ZStoredSsoSettings>;

export type TSsoSettings = Omit<TStoredSsoSettings, "clientSecretBox"> & { hasClientSecret: boolean };
export type TSsoClientConfig = { issuerUrl: string; clientId: string; clientSecret: string };

const emptySettings: TStoredSsoSettings = {
  isEnabled: false,
  issuerUrl: "",
  clientId: "",
  clientSecretBox: null,
  groupsClaim: "groups",
  groupRoles: [],
  defaultRoleId: null,
  allowedDomains: [],
  ssoOnlyDomains: [],
  breakGlassOwnerId: null,
  requireVerifiedEmail: true,
};

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}

async function readStored(): Promise<TStoredSsoSettings> {
  const row = await db.appSetting.findUnique({ where: { key: settingKey } });
  const parsed = ZStoredSsoSettings.safeParse(row?.value);
  return parsed.success ? parsed.data : emptySettings;
}

function toView({ clientSecretBox, ...rest }: TStoredSsoSettings): TSsoSettings {
  return { ...rest, hasClientSecret: clientSecretBox !== null };
}

export async function getSsoSettings(): Promise<TSsoSettings> {
  return toView(await readStored());
}

// What the flow needs, or null while SSO is off or incomplete.
export async function getSsoClientConfig(): Promise<(TSsoSettings & { client: TSsoClientConfig }) | null> {
  const stored = await readStored();
  if (!stored.isEnabled || !stored.issuerUrl || !stored.clientId || !stored.clientSecretBox) return null;
  const clientSecret = openSecret(stored.clientSecretBox, secretPurpose, getWebhooksEnv().secretKey);
  return { ...toView(stored), client: { issuerUrl: stored.issuerUrl, clientId: stored.clientId, clientSecret } };
}

export async function listBreakGlassCandidates(): Promise<{ id: string; name: string; email: string }[]> {
  return db.user.findMany({
    where: { roleId: ownerRoleId, isActive: true },
    select: { id: true, name: true, email: true },
    orderBy: { email: "asc" },
  });
}

export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

// Whether a password (or passkey) may open this account: not in an SSO-only domain, unless it is the break-glass Owner.
export async function isLocalSignInAllowed(
  email: string,
  user: { id: string; roleId: string; isActive: boolean } | null,
): Promise<boolean> {
  const settings = await readStored();
  if (!settings.isEnabled || !settings.ssoOnlyDomains.includes(emailDomain(email))) return true;
  return !!user?.isActive && settings.breakGlassOwnerId === user.id && user.roleId === ownerRoleId;
}

async function assertMappableRoles(input: z.output<typeof ZSsoSettingsInput>, context: TChangeContext) {
  const roleIds = new Set([
    ...input.groupRoles.map((row) => row.roleId),
    ...(input.defaultRoleId ? [input.defaultRoleId] : []),
  ]);
  for (const roleId of roleIds) {
    const role = await findRole(db, roleId);
    await assertMayGrant(db, context, role);
    // Admins are made in the dashboard, where a second admin approves; a provider's group must not skip that.
    if (isAdministrationRole(role)) {
      throw new AppError("VALIDATION_FAILED", "settings.sso.errors.administrationRole", {
        fieldErrors: { groupRoles: "administrationRole" },
      });
    }
  }
  if (input.breakGlassOwnerId) {
    const owner = await db.user.findUnique({ where: { id: input.breakGlassOwnerId } });
    if (!owner?.isActive || owner.roleId !== ownerRoleId) {
      throw new AppError("VALIDATION_FAILED", "settings.sso.errors.breakGlassNotOwner", {
        fieldErrors: { breakGlassOwnerId: "breakGlassNotOwner" },
      });
    }
  }
}

export async function saveSsoSettings(input: TSsoSettingsInput, context: TChangeContext): Promise<TSsoSettings> {
  const parsed = ZSsoSettingsInput.parse(input);
  await assertMappableRoles(parsed, context);
  const before = await readStored();
  const isSecretReplaced = parsed.clientSecret.length > 0;
  if (!isSecretReplaced && !before.clientSecretBox) {
    throw new AppError("VALIDATION_FAILED", "settings.sso.errors.clientSecretRequired", {
      fieldErrors: { clientSecret: "clientSecretRequired" },
    });
  }
  const { clientSecret, ...rest } = parsed;
  const next: TStoredSsoSettings = {
    ...rest,
    allowedDomains: [...new Set(rest.allowedDomains)],
    ssoOnlyDomains: [...new Set(rest.ssoOnlyDomains)],
    clientSecretBox: isSecretReplaced
      ? sealSecret(clientSecret, secretPurpose, getWebhooksEnv().secretKey)
      : before.clientSecretBox,
  };
  const updatedById = context.actor?.id ?? null;
  const value = next as unknown as Prisma.InputJsonValue;
  await inTransaction(async (tx) => {
    await tx.appSetting.upsert({
      where: { key: settingKey },
      create: { key: settingKey, value, updatedById },
      update: { value, updatedById },
    });
    await recordAudit(
      {
        actor: context.actor,
        action: "sso.settings_changed",
        resourceType: "setting",
        resourceId: settingKey,
        ip: context.ip,
        userAgent: context.userAgent,
        // The audit keeps what changed, the secret only as whether one is stored and whether it was replaced.
        metadata: { before: toView(before), after: toView(next), isSecretReplaced },
      },
      tx,
    );
  });
  return toView(next);
}
