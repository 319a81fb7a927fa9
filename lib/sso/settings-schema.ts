import { z } from "zod";

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

export const ZStoredSsoSettings = ZSsoSettingsInput.omit({ clientSecret: true }).extend({
  issuerUrl: z.string(),
  clientSecretBox: z.string().nullable(),
});
export type TStoredSsoSettings = z.infer<typeof ZStoredSsoSettings>;

export type TSsoSettings = Omit<TStoredSsoSettings, "clientSecretBox"> & { hasClientSecret: boolean };
export type TSsoClientConfig = { issuerUrl: string; clientId: string; clientSecret: string };

export const emptySsoSettings: TStoredSsoSettings = {
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

// What pages and the audit see: whether a secret is stored, never its box.
export function ssoSettingsView({ clientSecretBox, ...rest }: TStoredSsoSettings): TSsoSettings {
  return { ...rest, hasClientSecret: clientSecretBox !== null };
}
