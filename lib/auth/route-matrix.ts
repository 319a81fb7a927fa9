import { permissions, type TPermission } from "./permissions";

// A new endpoint starts with a row here: its permission (or any signed-in person, or everyone) and its answer past
// the guard. The tests call it as anonymous, as a holder of only that permission and as one of all the others.

export type TAccess<TOutcome> =
  | { permission: TPermission; also?: TPermission[]; granted: TOutcome }
  | { signedIn: TOutcome }
  | { anonymous: TOutcome; signedIn: TOutcome };

export type TPageOutcome = "ok" | "login" | "forbidden" | "not-found" | `redirect:${string}`;
export type TRouteOutcome = number;
export type TActionOutcome = string;

export type TMatrixIdentity = { name: string; permissions: readonly TPermission[] | null };

export const anonymousIdentity: TMatrixIdentity = { name: "anonymous", permissions: null };

// Anonymous, then for each permission a person holding only it (beside seeing payments, which most pages build on)
// and one holding all but it: every permission both opens its endpoints and is needed for them.
export const matrixIdentities: TMatrixIdentity[] = [
  anonymousIdentity,
  ...permissions.flatMap((permission) => [
    { name: `only ${permission}`, permissions: [...new Set<TPermission>(["payments.view", permission])] },
    { name: `all but ${permission}`, permissions: permissions.filter((other) => other !== permission) },
  ]),
];

type TRefusals<TOutcome> = { anonymous: TOutcome; forbidden: TOutcome };

const refusals = {
  page: { anonymous: "login", forbidden: "forbidden" } as TRefusals<TPageOutcome>,
  route: { anonymous: 401, forbidden: 403 } as TRefusals<TRouteOutcome>,
  action: { anonymous: "UNAUTHENTICATED", forbidden: "FORBIDDEN" } as TRefusals<TActionOutcome>,
};

export function expectedOutcome<TOutcome>(
  kind: keyof typeof refusals,
  access: TAccess<TOutcome>,
  identity: TMatrixIdentity,
): TOutcome {
  const refusal = refusals[kind] as TRefusals<TOutcome>;
  if ("anonymous" in access) return identity.permissions ? access.signedIn : access.anonymous;
  if (!identity.permissions) return refusal.anonymous;
  if ("signedIn" in access) return access.signedIn;
  const needed = [access.permission, ...(access.also ?? [])];
  return needed.every((permission) => identity.permissions!.includes(permission)) ? access.granted : refusal.forbidden;
}

// The fewest identities that still prove a row: its permission opens it and is needed for it.
export function essentialIdentities(access: TAccess<unknown>): TMatrixIdentity[] {
  const firstSignedIn = matrixIdentities[1]!;
  if (!("permission" in access)) return [anonymousIdentity, firstSignedIn];
  return matrixIdentities.filter(
    (identity) => identity.name === `only ${access.permission}` || identity.name === `all but ${access.permission}`,
  );
}

export const matrixSampleParams: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  id: "00000000-0000-4000-8000-000000000000",
  webhookId: "00000000-0000-4000-8000-000000000000",
  txid: "routematrixsample000000000",
  kind: "pix-charges",
  document: "00000000000",
  nextauth: "session",
  token: "routematrixsampletoken",
};

export function samplePath(routePath: string): string {
  return routePath.replace(/\[{1,2}(?:\.\.\.)?(\w+)\]{1,2}/g, (_match, name: string) => {
    const value = matrixSampleParams[name];
    if (!value)
      throw new Error(`No sample value for the segment [${name}] of ${routePath}: add one to matrixSampleParams`);
    return value;
  });
}

const page = (permission: TPermission): TAccess<TPageOutcome> => ({ permission, granted: "ok" });
// A sample id no row has: past the guard, the page answers 404.
const detailPage = (permission: TPermission): TAccess<TPageOutcome> => ({ permission, granted: "not-found" });
const ownAccountPage: TAccess<TPageOutcome> = { signedIn: "ok" };

export const pageMatrix: Record<string, TAccess<TPageOutcome>> = {
  "/": page("payments.view"),
  "/login": { anonymous: "ok", signedIn: "redirect:/" },
  // Where the SSO callback hands over its one-time ticket; the ticket, not a session, is what counts.
  "/login/sso": { anonymous: "ok", signedIn: "ok" },
  // Mailed links and the forgot-password form: the link's token, not a session, is what counts.
  "/forgot-password": { anonymous: "ok", signedIn: "ok" },
  "/invite/[token]": { anonymous: "ok", signedIn: "ok" },
  "/reset-password/[token]": { anonymous: "ok", signedIn: "ok" },
  "/account/password": ownAccountPage,
  "/account/security": ownAccountPage,
  "/pix": page("payments.view"),
  "/pix/new": page("pix.charge"),
  "/pix/[txid]": detailPage("payments.view"),
  "/refunds": page("payments.view"),
  "/links": page("payments.view"),
  "/links/new": page("links.manage"),
  "/links/[uuid]": detailPage("payments.view"),
  "/cards": page("savedCards.manage"),
  "/payments": page("payments.view"),
  "/payments/new": page("cards.charge"),
  "/payments/[id]": detailPage("payments.view"),
  "/pos": page("pos.manage"),
  "/pos/keys": page("pos.manage"),
  "/pos/sellers": page("pos.manage"),
  "/pos/sellers/[id]": detailPage("pos.manage"),
  "/pos/tenants/[id]": detailPage("pos.manage"),
  "/pos/sales": page("pos.manage"),
  "/pos/sales/[id]": detailPage("pos.manage"),
  "/webhooks/deliveries": page("webhooks.view"),
  "/webhooks/deliveries/[id]": detailPage("webhooks.view"),
  "/webhooks": page("webhooks.manage"),
  "/webhooks/signature-check": page("webhooks.manage"),
  "/jobs": page("jobs.run"),
  "/health": page("health.view"),
  "/health/drift": page("health.view"),
  "/settings": page("settings.manage"),
  // The outbox holds invitation and reset links: whoever reads it could take over those accounts.
  "/settings/outbox": page("users.manage"),
  "/settings/outbox/[id]": detailPage("users.manage"),
  "/users": page("users.manage"),
  "/users/roles": page("users.manage"),
  "/users/roles/new": page("users.manage"),
  "/users/roles/[id]": detailPage("users.manage"),
  "/audit": page("audit.view"),
  "/approvals": page("payments.view"),
  "/customers": page("payments.view"),
  "/customers/[document]": detailPage("payments.view"),
  "/alerts": page("health.view"),
  "/alerts/rules": page("alerts.manage"),
  "/pay/[uuid]": { anonymous: "not-found", signedIn: "not-found" },
};

const read = (permission: TPermission): TAccess<TRouteOutcome> => ({ permission, granted: 404 });
const posApiKeyOnly: TAccess<TRouteOutcome> = { anonymous: 401, signedIn: 401 };

export const routeMatrix: Record<string, TAccess<TRouteOutcome>> = {
  "GET /api/health": { anonymous: 200, signedIn: 200 },
  // Prometheus's bearer token (METRICS_TOKEN), never a session; without the variable the route answers 404.
  "GET /api/metrics": { anonymous: 401, signedIn: 401 },
  // next-auth's own endpoints: GET /api/auth/session answers everyone; a POST without its CSRF token is refused.
  "GET /api/auth/[...nextauth]": { anonymous: 200, signedIn: 200 },
  "POST /api/auth/[...nextauth]": { anonymous: 400, signedIn: 400 },
  // Single sign-on: both redirect, to the provider or back to /login with the reason (here: not configured).
  "GET /api/auth/sso/start": { anonymous: 303, signedIn: 303 },
  "GET /api/auth/sso/callback": { anonymous: 303, signedIn: 303 },
  // Each change reaches those who may see its resource (lib/events/change.ts).
  "GET /api/events": { signedIn: 200 },
  "GET /api/users": { permission: "users.manage", granted: 200 },
  "GET /api/links/[uuid]": read("payments.view"),
  "GET /api/pix/charges/[txid]": read("payments.view"),
  // A kind's rows also need the permission of its page (lib/exports/route.ts).
  "GET /api/exports/[kind]": { permission: "exports.download", also: ["payments.view"], granted: 200 },
  // The kinds searched are those the person may see; an empty query is refused first.
  "GET /api/search": { signedIn: 400 },
  // Authenticated by the delivery's signature, never by a session: an unknown webhook is unknown to all.
  "POST /api/webhooks/gateway/[webhookId]": { anonymous: 404, signedIn: 404 },
  // Only the verified payer's link cookie opens it; a staff session does not.
  "GET /pay/[uuid]/status": { anonymous: 401, signedIn: 401 },
  "GET /api/alerts": { permission: "health.view", granted: 200 },
  "POST /v1/sellers/activate": posApiKeyOnly,
  "GET /v1/transactions/config": posApiKeyOnly,
  "POST /v1/transactions": posApiKeyOnly,
};

const action = (permission: TPermission): TAccess<TActionOutcome> => ({ permission, granted: "VALIDATION_FAILED" });
// One's own account and preferences.
const signedInAction: TAccess<TActionOutcome> = { signedIn: "VALIDATION_FAILED" };
const everyone = (outcome: TActionOutcome): TAccess<TActionOutcome> => ({ anonymous: outcome, signedIn: outcome });

const pay = "app/(public)/pay/[uuid]/actions.ts";

export const actionMatrix: Record<string, TAccess<TActionOutcome>> = {
  "app/(auth)/account/password/actions.ts#changeOwnPasswordAction": signedInAction,
  "app/(auth)/account/security/actions.ts#confirmTwoFactorAction": signedInAction,
  "app/(auth)/account/security/actions.ts#disableTwoFactorAction": signedInAction,
  "app/(auth)/account/security/actions.ts#startPasskeyRegistrationAction": signedInAction,
  "app/(auth)/account/security/actions.ts#finishPasskeyRegistrationAction": signedInAction,
  "app/(auth)/account/security/actions.ts#renamePasskeyAction": signedInAction,
  "app/(auth)/account/security/actions.ts#removePasskeyAction": signedInAction,
  "app/(auth)/login/actions.ts#startPasskeySignInAction": everyone("VALIDATION_FAILED"),
  "app/(dashboard)/pix/actions.ts#createPixChargeAction": action("pix.charge"),
  "app/(dashboard)/pix/actions.ts#cancelPixChargeAction": action("pix.charge"),
  "app/(dashboard)/pix/actions.ts#refreshPixChargesPageAction": action("payments.view"),
  "app/(dashboard)/pix/actions.ts#requestPixRefundAction": action("refunds.request"),
  "app/(dashboard)/pix/actions.ts#approveRefundAction": action("refunds.approve"),
  "app/(dashboard)/pix/actions.ts#rejectRefundAction": action("refunds.approve"),
  "app/(dashboard)/refunds/actions.ts#refreshPixRefundAction": action("payments.view"),
  "app/(dashboard)/settings/actions.ts#setDailyMoneyReturnLimitAction": action("settings.manage"),
  "app/(dashboard)/payments/(list)/actions.ts#refreshCardPaymentsPageAction": action("payments.view"),
  "app/(dashboard)/links/actions.ts#createPaymentLinkAction": action("links.manage"),
  "app/(dashboard)/links/actions.ts#cancelPaymentLinkAction": action("links.manage"),
  "app/(dashboard)/links/actions.ts#refundLinkPixPaymentAction": action("refunds.request"),
  "app/(dashboard)/links/actions.ts#refreshPaymentLinksAction": action("payments.view"),
  "app/(dashboard)/payments/new/actions.ts#chargeCardAction": action("cards.charge"),
  "app/(dashboard)/payments/actions.ts#cancelCardPaymentAction": action("cards.cancel"),
  "app/(dashboard)/payments/actions.ts#refreshCardPaymentAction": action("payments.view"),
  "app/(dashboard)/cards/actions.ts#addCardTokenAction": action("savedCards.manage"),
  "app/(dashboard)/cards/actions.ts#enableCardTokenAction": action("savedCards.manage"),
  "app/(dashboard)/cards/actions.ts#disableCardTokenAction": action("savedCards.manage"),
  "app/(dashboard)/cards/actions.ts#lookUpCardTokenAction": action("savedCards.manage"),
  "app/(dashboard)/cards/actions.ts#refreshCardTokensPageAction": action("savedCards.manage"),
  "app/(dashboard)/jobs/actions.ts#runJobNowAction": action("jobs.run"),
  "app/(dashboard)/health/drift/actions.ts#healDriftAction": action("jobs.run"),
  "app/(dashboard)/health/drift/actions.ts#removeUnknownAction": action("jobs.run"),
  "app/(dashboard)/settings/actions.ts#checkGatewayConnectionAction": action("settings.manage"),
  "app/(dashboard)/settings/actions.ts#setTwoFactorRequirementAction": action("settings.manage"),
  "app/(dashboard)/settings/actions.ts#saveSsoSettingsAction": action("settings.manage"),
  "app/(dashboard)/users/actions.ts#createUserAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#changeUserRoleAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#setUserActiveAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#resetUserPasswordAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#resetUserTwoFactorAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#approveAdminChangeAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#rejectAdminChangeAction": action("users.manage"),
  "app/(dashboard)/webhooks/actions.ts#registerWebhookAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/actions.ts#updateWebhookAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/actions.ts#deactivateWebhookAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/actions.ts#startSecretRotationAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/actions.ts#replayDeliveryAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/actions.ts#checkSignatureAction": action("webhooks.manage"),
  "app/(dashboard)/webhooks/reconcile-actions.ts#runReconciliationAction": action("jobs.run"),
  "app/(dashboard)/pos/actions.ts#createPosApiKeyAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#rotatePosApiKeyAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#revokePosApiKeyAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#setSellerTokenVerificationAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#setPosStatusAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#savePosConfigAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#savePosTenantConfigAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#savePosTenantTerminalsAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#removePosOverrideAction": action("pos.manage"),
  "app/(dashboard)/pos/actions.ts#runPosMatchingAction": action("pos.manage"),
  [`${pay}#verifyCodeAction`]: everyone("wrong"),
  [`${pay}#payByCardAction`]: everyone("accessExpired"),
  [`${pay}#startPixAction`]: everyone("accessExpired"),
  [`${pay}#switchPayLocaleAction`]: everyone("ok"),
  "app/(auth)/invite/[token]/actions.ts#acceptInvitationAction": everyone("VALIDATION_FAILED"),
  "app/(auth)/reset-password/[token]/actions.ts#resetPasswordAction": everyone("VALIDATION_FAILED"),
  "app/(auth)/forgot-password/actions.ts#requestPasswordResetAction": everyone("VALIDATION_FAILED"),
  "lib/i18n/actions.ts#setLocaleAction": everyone("VALIDATION_FAILED"),
  "lib/theme/actions.ts#setThemeAction": everyone("VALIDATION_FAILED"),
  "app/(dashboard)/users/actions.ts#resendInvitationAction": action("users.manage"),
  "app/(dashboard)/users/actions.ts#revokeInvitationAction": action("users.manage"),
  "app/(dashboard)/users/roles/actions.ts#createRoleAction": action("users.manage"),
  "app/(dashboard)/users/roles/actions.ts#updateRoleAction": action("users.manage"),
  "app/(dashboard)/users/roles/actions.ts#deleteRoleAction": action("users.manage"),
  "app/(dashboard)/alerts/actions.ts#markAlertsSeenAction": action("health.view"),
  "app/(dashboard)/alerts/actions.ts#saveAlertRuleAction": action("alerts.manage"),
  "app/(dashboard)/alerts/actions.ts#muteAlertRuleAction": action("alerts.manage"),
};
