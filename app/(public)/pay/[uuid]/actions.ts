"use server";

import { redirect } from "next/navigation";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { getRequestContext } from "@/lib/auth/request-context";
import { isAppError } from "@/lib/errors";
import { setLocaleAction } from "@/lib/i18n/actions";
import type { TLocale } from "@/lib/i18n/config";
import { grantPayAccess, hasPayAccess, payPagePath } from "@/lib/links/pay-access";
import { payLinkByCard, verifyPayPageCode, ZCardPaymentInput, ZLinkPaymentUuid } from "@/lib/links/pay-page";
import { cardPaymentInProgressMessage, getOrCreateLinkPixCharge, type TLinkPixCharge } from "@/lib/links/pix";
import type { TRefusalMessageKey } from "@/lib/links/refusal-message";
import { log } from "@/lib/log";

// The hosted page's actions are public (the payer has no session): each one checks the link-scoped
// access cookie itself instead. Card data arrives in the FormData and is handed to lib/links
// without being logged, echoed back or put in an error.

// The payer has no account: the audit log gets the request's address and browser only.
async function payerContext(): Promise<TChangeContext> {
  return { actor: null, ...(await getRequestContext()) };
}

export type TVerifyState =
  | { status: "idle" | "wrong" | "locked" | "unavailable" }
  | { status: "limited"; retryMinutes: number };

export async function verifyCodeAction(
  linkPaymentUuid: string,
  _previous: TVerifyState,
  formData: FormData,
): Promise<TVerifyState> {
  const uuid = ZLinkPaymentUuid.parse(linkPaymentUuid);
  const code = String(formData.get("code") ?? "").replace(/\s/g, "");
  const outcome = await verifyPayPageCode(uuid, code, (await getRequestContext()).ip);
  if (outcome.status === "limited")
    return { status: "limited", retryMinutes: Math.max(1, Math.ceil(outcome.retryAfterMs / 60_000)) };
  if (outcome.status !== "ok") return { status: outcome.status };
  await grantPayAccess(uuid);
  redirect(payPagePath(uuid));
}

export type TCardState =
  | { status: "idle" | "accessExpired" | "notPayable" | "busy" | "unavailable" }
  | { status: "invalid"; fieldErrors: Record<string, string> }
  | { status: "refused"; messageKey: TRefusalMessageKey }
  | { status: "locked"; lockedUntil: string };

const cardFields = ["cardNumber", "holderName", "expiry", "securityCode", "installments"] as const;

export async function payByCardAction(
  linkPaymentUuid: string,
  _previous: TCardState,
  formData: FormData,
): Promise<TCardState> {
  const uuid = ZLinkPaymentUuid.parse(linkPaymentUuid);
  if (!(await hasPayAccess(uuid))) return { status: "accessExpired" };
  const parsed = ZCardPaymentInput.safeParse(
    Object.fromEntries(cardFields.map((field) => [field, String(formData.get(field) ?? "")])),
  );
  if (!parsed.success) {
    // Field names and message keys only: zod issues do not carry the input, and none is copied here.
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
    return { status: "invalid", fieldErrors };
  }
  const outcome = await payLinkByCard(uuid, parsed.data, await payerContext());
  if (outcome.status === "paid") redirect(payPagePath(uuid));
  return outcome;
}

export type TPixState =
  | { status: "ready"; charge: TLinkPixCharge }
  | { status: "accessExpired" | "notPayable" | "busy" | "unavailable" };

export async function startPixAction(linkPaymentUuid: string): Promise<TPixState> {
  const uuid = ZLinkPaymentUuid.parse(linkPaymentUuid);
  if (!(await hasPayAccess(uuid))) return { status: "accessExpired" };
  try {
    return {
      status: "ready",
      charge: await getOrCreateLinkPixCharge(uuid, await payerContext()),
    };
  } catch (error) {
    if (isAppError(error) && error.message === cardPaymentInProgressMessage) return { status: "busy" };
    if (isAppError(error) && ["CONFLICT", "FORBIDDEN", "NOT_FOUND"].includes(error.code))
      return { status: "notPayable" };
    log.warn({ err: error, linkPaymentUuid: uuid }, "pay page: Pix charge could not be issued");
    return { status: "unavailable" };
  }
}

// The payer has no account: the language lives in the cookie only (setLocaleAction saves nothing else without a session).
export async function switchPayLocaleAction(locale: TLocale): Promise<void> {
  await setLocaleAction(locale);
}
