// route-matrix tests fail on a missing or stale row: a new endpoint starts with a row here.

export const matrixRoles = ["anonymous", "STAFF", "ADMIN"] as const;
export type TMatrixRole = (typeof matrixRoles)[number];
export type TMatrixRow<TOutcome> = Record<TMatrixRole, TOutcome>;

export type TPageOutcome = "ok" | "login" | "forbidden" | "not-found" | `redirect:${string}`;

export type TRouteOutcome = number;

export type TActionOutcome = string;

export const matrixSampleParams: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-000000000000",
  id: "00000000-0000-4000-8000-000000000000",
  webhookId: "00000000-0000-4000-8000-000000000000",
  txid: "routematrixsample000000000",
  kind: "audit",
  document: "00000000000",
  nextauth: "session",
};

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
const adminDetailPage: TMatrixRow<TPageOutcome> = { anonymous: "login", STAFF: "forbidden", ADMIN: "not-found" };

export const pageMatrix: Record<string, TMatrixRow<TPageOutcome>> = {
  "/": userPage,
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
  "/cards": adminPage,
  "/payments": userPage,
  "/payments/new": userPage,
  "/payments/[id]": userDetailPage,
  "/pos": adminPage,
  "/pos/keys": adminPage,
  "/pos/sellers": adminPage,
  "/pos/sellers/[id]": adminDetailPage,
  "/pos/tenants/[id]": adminDetailPage,
  "/pos/sales": adminPage,
  "/pos/sales/[id]": adminDetailPage,
  "/webhooks/deliveries": userPage,
  "/webhooks/deliveries/[id]": userDetailPage,
  "/webhooks": adminPage,
  "/webhooks/signature-check": adminPage,
  "/jobs": adminPage,
  "/settings": adminPage,
  "/users": adminPage,
  "/audit": adminPage,
  "/approvals": userPage,
  "/customers": userPage,
  "/customers/[document]": userDetailPage,
  "/pay/[uuid]": { anonymous: "not-found", STAFF: "not-found", ADMIN: "not-found" },
};

const userRead: TMatrixRow<TRouteOutcome> = { anonymous: 401, STAFF: 404, ADMIN: 404 };
const posApiKeyOnly: TMatrixRow<TRouteOutcome> = { anonymous: 401, STAFF: 401, ADMIN: 401 };

export const routeMatrix: Record<string, TMatrixRow<TRouteOutcome>> = {
  "GET /api/health": { anonymous: 200, STAFF: 200, ADMIN: 200 },
  // next-auth's own endpoints: GET /api/auth/session answers everyone; a POST without its CSRF token is refused.
  "GET /api/auth/[...nextauth]": { anonymous: 200, STAFF: 200, ADMIN: 200 },
  "POST /api/auth/[...nextauth]": { anonymous: 400, STAFF: 400, ADMIN: 400 },
  "GET /api/events": { anonymous: 401, STAFF: 200, ADMIN: 200 },
  "GET /api/users": { anonymous: 401, STAFF: 403, ADMIN: 200 },
  "GET /api/links/[uuid]": userRead,
  "GET /api/pix/charges/[txid]": userRead,
  "GET /api/exports/[kind]": { anonymous: 401, STAFF: 403, ADMIN: 200 },
  "GET /api/search": { anonymous: 401, STAFF: 400, ADMIN: 400 },
  // Authenticated by the delivery's signature, never by a session: an unknown webhook is unknown to all.
  "POST /api/webhooks/gateway/[webhookId]": { anonymous: 404, STAFF: 404, ADMIN: 404 },
  // Only the verified payer's link cookie opens it; a staff session does not.
  "GET /pay/[uuid]/status": { anonymous: 401, STAFF: 401, ADMIN: 401 },
  "POST /v1/sellers/activate": posApiKeyOnly,
  "GET /v1/transactions/config": posApiKeyOnly,
  "POST /v1/transactions": posApiKeyOnly,
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
  "app/(auth)/account/security/actions.ts#startPasskeyRegistrationAction": userAction,
  "app/(auth)/account/security/actions.ts#finishPasskeyRegistrationAction": userAction,
  "app/(auth)/account/security/actions.ts#renamePasskeyAction": userAction,
  "app/(auth)/account/security/actions.ts#removePasskeyAction": userAction,
  // The sign-in challenge is for anyone (the login page); its input is an empty object.
  "app/(auth)/login/actions.ts#startPasskeySignInAction": everyone("VALIDATION_FAILED"),
  "app/(dashboard)/pix/actions.ts#createPixChargeAction": userAction,
  "app/(dashboard)/pix/actions.ts#cancelPixChargeAction": userAction,
  "app/(dashboard)/pix/actions.ts#refreshPixChargesPageAction": userAction,
  "app/(dashboard)/pix/actions.ts#requestPixRefundAction": userAction,
  "app/(dashboard)/pix/actions.ts#approveRefundAction": adminAction,
  "app/(dashboard)/pix/actions.ts#rejectRefundAction": adminAction,
  "app/(dashboard)/refunds/actions.ts#refreshPixRefundAction": userAction,
  "app/(dashboard)/settings/actions.ts#setDailyMoneyReturnLimitAction": adminAction,
  "app/(dashboard)/payments/(list)/actions.ts#refreshCardPaymentsPageAction": userAction,
  "app/(dashboard)/links/actions.ts#createPaymentLinkAction": userAction,
  "app/(dashboard)/links/actions.ts#cancelPaymentLinkAction": userAction,
  "app/(dashboard)/links/actions.ts#refundLinkPixPaymentAction": userAction,
  "app/(dashboard)/links/actions.ts#refreshPaymentLinksAction": userAction,
  "app/(dashboard)/payments/new/actions.ts#chargeCardAction": userAction,
  // Like a Pix refund: STAFF may cancel a card payment (in full; the API has no partial cancel).
  "app/(dashboard)/payments/actions.ts#cancelCardPaymentAction": userAction,
  "app/(dashboard)/payments/actions.ts#refreshCardPaymentAction": userAction,
  "app/(dashboard)/cards/actions.ts#addCardTokenAction": adminAction,
  "app/(dashboard)/cards/actions.ts#enableCardTokenAction": adminAction,
  "app/(dashboard)/cards/actions.ts#disableCardTokenAction": adminAction,
  "app/(dashboard)/cards/actions.ts#lookUpCardTokenAction": adminAction,
  "app/(dashboard)/cards/actions.ts#refreshCardTokensPageAction": adminAction,
  "app/(dashboard)/jobs/actions.ts#runJobNowAction": adminAction,
  "app/(dashboard)/settings/actions.ts#checkGatewayConnectionAction": adminAction,
  "app/(dashboard)/settings/actions.ts#setTwoFactorRequirementAction": adminAction,
  "app/(dashboard)/settings/actions.ts#setRefundApprovalThresholdAction": adminAction,
  "app/(dashboard)/users/actions.ts#createUserAction": adminAction,
  "app/(dashboard)/users/actions.ts#changeUserRoleAction": adminAction,
  "app/(dashboard)/users/actions.ts#setUserActiveAction": adminAction,
  "app/(dashboard)/users/actions.ts#resetUserPasswordAction": adminAction,
  "app/(dashboard)/users/actions.ts#resetUserTwoFactorAction": adminAction,
  "app/(dashboard)/users/actions.ts#approveAdminChangeAction": adminAction,
  "app/(dashboard)/users/actions.ts#rejectAdminChangeAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#registerWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#updateWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#deactivateWebhookAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#startSecretRotationAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#replayDeliveryAction": adminAction,
  "app/(dashboard)/webhooks/actions.ts#checkSignatureAction": adminAction,
  "app/(dashboard)/webhooks/reconcile-actions.ts#runReconciliationAction": adminAction,
  "app/(dashboard)/pos/actions.ts#createPosApiKeyAction": adminAction,
  "app/(dashboard)/pos/actions.ts#rotatePosApiKeyAction": adminAction,
  "app/(dashboard)/pos/actions.ts#revokePosApiKeyAction": adminAction,
  "app/(dashboard)/pos/actions.ts#setSellerTokenVerificationAction": adminAction,
  "app/(dashboard)/pos/actions.ts#setPosStatusAction": adminAction,
  "app/(dashboard)/pos/actions.ts#savePosConfigAction": adminAction,
  "app/(dashboard)/pos/actions.ts#savePosTenantConfigAction": adminAction,
  "app/(dashboard)/pos/actions.ts#savePosTenantTerminalsAction": adminAction,
  "app/(dashboard)/pos/actions.ts#removePosOverrideAction": adminAction,
  "app/(dashboard)/pos/actions.ts#runPosMatchingAction": adminAction,
  [`${pay}#verifyCodeAction`]: everyone("wrong"),
  [`${pay}#payByCardAction`]: everyone("accessExpired"),
  [`${pay}#startPixAction`]: everyone("accessExpired"),
  [`${pay}#switchPayLocaleAction`]: everyone("ok"),
  "lib/i18n/actions.ts#setLocaleAction": everyone("VALIDATION_FAILED"),
  "lib/theme/actions.ts#setThemeAction": everyone("VALIDATION_FAILED"),
};
