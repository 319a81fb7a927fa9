// Pure: why a single sign-on was refused, shown on the login page as `?error=sso:<reason>`.
export const ssoRefusals = [
  "notConfigured",
  "rateLimited",
  "invalidState",
  "replayed",
  "expired",
  "providerRefused",
  "emailMissing",
  "emailNotVerified",
  "unknownDomain",
  "noRole",
  "inactive",
  "invitationInvalid",
  "invitationEmailMismatch",
  "ticketInvalid",
] as const;
export type TSsoRefusal = (typeof ssoRefusals)[number];

export const ssoErrorPrefix = "sso:";

export function parseSsoError(error: string | undefined): TSsoRefusal | null {
  if (!error?.startsWith(ssoErrorPrefix)) return null;
  const reason = error.slice(ssoErrorPrefix.length);
  return (ssoRefusals as readonly string[]).includes(reason) ? (reason as TSsoRefusal) : null;
}
