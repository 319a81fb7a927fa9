// Who may reach what: every page, route handler and server action of the app, and the answer each of
// anonymous, STAFF and ADMIN gets. lib/auth/route-matrix.test.ts fails when a page, handler or action on
// disk has no row here (or a row names nothing); route-matrix.int.test.ts calls every handler and action
// as each role, and e2e/route-matrix.spec.ts requests every page. A new endpoint starts with a row here.

export const matrixRoles = ["anonymous", "STAFF", "ADMIN"] as const;
export type TMatrixRole = (typeof matrixRoles)[number];
export type TMatrixRow<TOutcome> = Record<TMatrixRole, TOutcome>;

/**
 * A page's answer to a plain GET, redirects not followed: "ok" (200), "login" (a redirect to /login),
 * "forbidden" (403), "not-found" (404: the sample id exists nowhere, so the guard was passed first), or
 * "redirect:<path>" (a redirect elsewhere).
 */
export type TPageOutcome = "ok" | "login" | "forbidden" | "not-found" | `redirect:${string}`;

/** A route handler's HTTP status for a request with no body, at the sample path. */
export type TRouteOutcome = number;

/**
 * A server action's answer to a probe that no schema accepts (so nothing runs past the guards): the error
 * code of `{ ok: false }`, "ok" for anything else without a code, or the `status` of the hosted page's actions.
 */
export type TActionOutcome = string;

/** Values for the dynamic segments of the sample paths: none of them exists, in any database. */
export const matrixSampleParams: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  id: "00000000-0000-4000-8000-000000000000",
  webhookId: "00000000-0000-4000-8000-000000000000",
  txid: "routematrixsample000000000",
  nextauth: "session",
};

/** "/links/[uuid]" → "/links/00000000-…"; "[...x]" and "[[...x]]" take one segment. */
export function samplePath(routePath: string): string {
  return routePath.replace(/\[{1,2}(?:\.\.\.)?(\w+)\]{1,2}/g, (_match, name: string) => {
    const value = matrixSampleParams[name];
    if (!value)
      throw new Error(`No sample value for the segment [${name}] of ${routePath}: add one to matrixSampleParams`);
    return value;
  });
}

const userPage: TMatrixRow<TPageOutcome> = { anonymous: "login", STAFF: "ok", ADMIN: "ok" };
const adminPage: TMatrixRow<TPageOutcome> = { anonymous: "login", STAFF: "forbidden", ADMIN: "ok" };
const userDetailPage: TMatrixRow<TPageOutcome> = { anonymous: "login", STAFF: "not-found", ADMIN: "not-found" };

export const pageMatrix: Record<string, TMatrixRow<TPageOutcome>> = {
  "/": { anonymous: "login", STAFF: "redirect:/pix", ADMIN: "redirect:/pix" },
  "/login": { anonymous: "ok", STAFF: "redirect:/", ADMIN: "redirect:/" },
  "/account/password": userPage,
  "/account/security": userPage,
  "/pix": userPage,
  "/pix/new": userPage,
  "/pix/[txid]": userDetailPage,
  "/refunds": userPage,
  "/links": userPage,
  "/links/new": userPage,
  "/links/[uuid]": userDetailPage,
  "/cards": userPage,
  "/payments": userPage,
  "/pos": userPage,
  "/webhooks/deliveries": userPage,
  "/webhooks/deliveries/[id]": userDetailPage,
  "/webhooks": adminPage,
  "/webhooks/signature-check": adminPage,
  "/jobs": adminPage,
  "/settings": adminPage,
  "/users": adminPage,
  "/audit": adminPage,
  // Everyone sees what waits; only another admin's approve/reject actions go through.
  "/approvals": userPage,
  // The payer's page: no session involved; the sample link does not exist.
  "/pay/[uuid]": { anonymous: "not-found", STAFF: "not-found", ADMIN: "not-found" },
};

const userRead: TMatrixRow<TRouteOutcome> = { anonymous: 401, STAFF: 404, ADMIN: 404 };

export const routeMatrix: Record<string, TMatrixRow<TRouteOutcome>> = {
  "GET /api/health": { anonymous: 200, STAFF: 200, ADMIN: 200 },
  // next-auth's own endpoints: GET /api/auth/session answers everyone; a POST without its CSRF token is refused.
  "GET /api/auth/[...nextauth]": { anonymous: 200, STAFF: 200, ADMIN: 200 },
  "POST /api/auth/[...nextauth]": { anonymous: 400, STAFF: 400, ADMIN: 400 },
  "GET /api/events": { anonymous: 401, STAFF: 200, ADMIN: 200 },
  "GET /api/users": { anonymous: 401, STAFF: 403, ADMIN: 200 },
  "GET /api/links/[uuid]": userRead,
  "GET /api/pix/charges/[txid]": userRead,
  // Authenticated by the delivery's signature, never by a session: an unknown webhook is unknown to all.
  "POST /api/webhooks/gateway/[webhookId]": { anonymous: 404, STAFF: 404, ADMIN: 404 },
  // Only the verified payer's link cookie opens it; a staff session does not.
  "GET /pay/[uuid]/status": { anonymous: 401, STAFF: 401, ADMIN: 401 },
};

const userAction: TMatrixRow<TActionOutcome> = {
  anonymous: "UNAUTHENTICATED",
  STAFF: "VALIDATION_FAILED",
  ADMIN: "VALIDATION_FAILED",
};
const adminAction: TMatrixRow<TActionOutcome> = {
  anonymous: "UNAUTHENTICATED",
  STAFF: "FORBIDDEN",
  ADMIN: "VALIDATION_FAILED",
};
const everyone = (outcome: TActionOutcome): TMatrixRow<TActionOutcome> => ({
  anonymous: outcome,
  STAFF: outcome,
  ADMIN: outcome,
});

const pay = "app/(public)/pay/[uuid]/actions.ts";

export const actionMatrix: Record<string, TMatrixRow<TActionOutcome>> = {
  "app/(auth)/account/password/actions.ts#changeOwnPasswordAction": userAction,
  "app/(auth)/account/security/actions.ts#confirmTwoFactorAction": userAction,
  "app/(auth)/account/security/actions.ts#disableTwoFactorAction": userAction,
  "app/(dashboard)/pix/actions.ts#createPixChargeAction": userAction,
  "app/(dashboard)/pix/actions.ts#cancelPixChargeAction": userAction,
  "app/(dashboard)/pix/actions.ts#refreshPixChargesPageAction": userAction,
  "app/(dashboard)/pix/actions.ts#requestPixRefundAction": userAction,
  "app/(dashboard)/pix/actions.ts#approveRefundAction": adminAction,
  "app/(dashboard)/pix/actions.ts#rejectRefundAction": adminAction,
  "app/(dashboard)/links/actions.ts#createPaymentLinkAction": userAction,
  "app/(dashboard)/links/actions.ts#cancelPaymentLinkAction": userAction,
  // Like any Pix refund: STAFF may refund a payment that landed on a cancelled link.
  "app/(dashboard)/links/actions.ts#refundLinkPixPaymentAction": userAction,
  "app/(dashboard)/links/actions.ts#refreshPaymentLinksAction": userAction,
  "app/(dashboard)/jobs/actions.ts#runJobNowAction": adminAction,
  "app/(dashboard)/settings/actions.ts#checkGatewayConnectionAction": adminAction,
  "app/(dashboard)/settings/actions.ts#setTwoFactorRequirementAction": adminAction,
  "app/(dashboard)/settings/actions.ts#setRefundApprovalThresholdAction": adminAction,
  "app/(dashboard)/users/actions.ts#createUserAction": adminAction,
  "app/(dashboard)/users/actions.ts#changeUserRoleAction": adminAction,
  "app/(dashboard)/users/actions.ts#setUserActiveAction": adminAction,
  "app/(dashboard)/users/actions.ts#resetUserPasswordAction": adminAction,
  "app/(dashboard)/users/actions.ts#resetUserTwoFactorAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#registerWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#updateWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#deactivateWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#startSecretRotationAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#replayDeliveryAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#checkSignatureAction": adminAction,
  "app/(dashboard)/webhooks/reconcile-actions.ts#runReconciliationAction": adminAction,
  // The payer's actions take no session: each checks the link-scoped cookie (or the code) itself.
  [`${pay}#verifyCodeAction`]: everyone("wrong"),
  [`${pay}#payByCardAction`]: everyone("accessExpired"),
  [`${pay}#startPixAction`]: everyone("accessExpired"),
  [`${pay}#switchPayLocaleAction`]: everyone("ok"),
  // The language switch works signed out too (the sign-in page); signed in it also saves the choice.
  "lib/i18n/actions.ts#setLocaleAction": everyone("VALIDATION_FAILED"),
};
