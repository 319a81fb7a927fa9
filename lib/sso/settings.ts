import "server-only";
import type { z } from "zod";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { ownerRoleId } from "@/lib/auth/roles";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getAppSetting, setAppSetting } from "@/lib/settings/app-settings";
import { assertMayGrant, findRole, isAdministrationRole } from "@/lib/users/roles";
import {
  ssoSettingsView,
  type TSsoClientConfig,
  type TSsoSettings,
  type TSsoSettingsInput,
  type TStoredSsoSettings,
  ZSsoSettingsInput,
} from "./settings-schema";

export {
  type TSsoClientConfig,
  type TSsoSettings,
  type TSsoSettingsInput,
  ZSsoSettingsInput,
} from "./settings-schema";

const secretPurpose = "sso-client-secret";

function readStored(): Promise<TStoredSsoSettings> {
  return getAppSetting("sso");
}

export async function getSsoSettings(): Promise<TSsoSettings> {
  return ssoSettingsView(await readStored());
}

// What the flow needs, or null while SSO is off or incomplete.
export async function getSsoClientConfig(): Promise<(TSsoSettings & { client: TSsoClientConfig }) | null> {
  const stored = await readStored();
  if (!stored.isEnabled || !stored.issuerUrl || !stored.clientId || !stored.clientSecretBox) return null;
  const clientSecret = openSecret(stored.clientSecretBox, secretPurpose, getWebhooksEnv().secretKey);
  return {
    ...ssoSettingsView(stored),
    client: { issuerUrl: stored.issuerUrl, clientId: stored.clientId, clientSecret },
  };
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
  // The audit keeps what changed, the secret only as whether one is stored and whether it was replaced.
  await setAppSetting("sso", next, context, { isSecretReplaced });
  return ssoSettingsView(next);
}
