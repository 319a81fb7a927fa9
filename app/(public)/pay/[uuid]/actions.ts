"use server";

import { randomUUID } from "node:crypto";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { createTranslator } from "next-intl";
import { z } from "zod";
import { publicActionContext } from "@/lib/actions/define-action";
import { zodIssuesToFieldErrors } from "@/lib/actions/field-errors";
import { getRequestContext } from "@/lib/auth/request-context";
import { isAppError } from "@/lib/errors";
import { setLocaleAction } from "@/lib/i18n/actions";
import { localeCookieName, resolveLocale, type TLocale, timeZone } from "@/lib/i18n/config";
import { grantPayAccess, hasPayAccess, payPagePath } from "@/lib/links/pay-access";
import { ZLinkPaymentUuid } from "@/lib/links/pay-page";
import { payLinkByCardOnce, type TCardOutcome, ZCardPaymentInput } from "@/lib/links/pay-page-card";
import { verifyPayPageCode } from "@/lib/links/pay-page-verify";
import { cardPaymentInProgressKey, getOrCreateLinkPixCharge, type TLinkPixCharge } from "@/lib/links/pix";
import { log } from "@/lib/log";

// The hosted page's actions are public (the payer has no session): each one checks the link-scoped
// access cookie itself instead. Card data arrives in the FormData and is handed to lib/links
// without being logged, echoed back or put in an error. Every action also serves the page without
// JavaScript: its forms post to it and Next renders the page with the returned state, so messages
// are translated here (the page's client islands ship no message catalog). The link comes in a hidden field rather
// than bound with `.bind`: a bound action behind `useActionState` makes Next's no-JavaScript path never answer.

async function payTranslator() {
  const locale = resolveLocale((await cookies()).get(localeCookieName)?.value);
  const messages = (await import(`@/lib/i18n/messages/${locale}.json`)).default;
  return createTranslator({ locale, messages, namespace: "pay", timeZone });
}

export type TVerifyState = {
  status: "idle" | "wrong" | "locked" | "unavailable" | "limited";
  message?: string;
};

/** The link the form is for (its hidden `linkPaymentUuid` field); null when missing or malformed. */
function linkOf(formData: FormData | undefined): string | null {
  const parsed = ZLinkPaymentUuid.safeParse(formData?.get("linkPaymentUuid"));
  return parsed.success ? parsed.data : null;
}

export async function verifyCodeAction(_previous: TVerifyState, formData: FormData): Promise<TVerifyState> {
  const uuid = linkOf(formData);
  // A malformed link answers like a wrong code: nothing tells a guesser which links exist.
  if (!uuid) return { status: "wrong", message: (await payTranslator())("verify.wrong") };
  const code = String(formData.get("code") ?? "").replace(/\s/g, "");
  const outcome = await verifyPayPageCode(uuid, code, (await getRequestContext()).ip);
  if (outcome.status === "ok") {
    await grantPayAccess(uuid);
    redirect(payPagePath(uuid));
  }
  const t = await payTranslator();
  if (outcome.status !== "limited") return { status: outcome.status, message: t(`verify.${outcome.status}`) };
  const minutes = Math.max(1, Math.ceil(outcome.retryAfterMs / 60_000));
  return {
    status: "limited",
    message:
      minutes > 90 ? t("verify.limitedHours", { hours: Math.ceil(minutes / 60) }) : t("verify.limited", { minutes }),
  };
}

/** What the payer chose besides the card itself: shown again after an answer (never the number or code). */
type TCardChoices = { installments: number; holderName: string; expiry: string };

export type TCardState = {
  status:
    | "idle"
    | "accessExpired"
    | "notPayable"
    | "busy"
    | "unavailable"
    | "invalid"
    | "refused"
    | "locked"
    | "adviceBlocked";
  message?: string;
  fieldErrors?: Record<string, string>;
  choices?: TCardChoices;
  // The next submit's idempotency key: each answer opens a new attempt.
  formKey?: string;
};

const cardFields = ["cardNumber", "holderName", "expiry", "securityCode", "installments"] as const;

async function cardState(
  outcome: Exclude<TCardOutcome, { status: "paid" }> | { status: "accessExpired" },
  choices: TCardChoices,
) {
  const t = await payTranslator();
  const state: TCardState = { status: outcome.status, choices, formKey: randomUUID() };
  if (outcome.status === "refused") state.message = t(`card.refusal.${outcome.messageKey}`);
  else if (outcome.status === "locked") state.message = t("card.locked", { until: new Date(outcome.lockedUntil) });
  else if (outcome.status === "adviceBlocked")
    state.message = t(`card.advice.${outcome.advice}`, {
      until: outcome.retryAfter ? new Date(outcome.retryAfter) : new Date(),
    });
  else if (outcome.status === "invalid") {
    // Field names and message keys only: zod issues do not carry the input, and none is copied here.
    const { form, ...fields } = outcome.fieldErrors;
    state.fieldErrors = Object.fromEntries(
      Object.entries(fields).map(([field, key]) => [field, t(`card.errors.${key}` as "card.errors.cardNumberInvalid")]),
    );
    if (form) state.message = t("card.errors.cardRejected");
  } else state.message = t(`card.outcome.${outcome.status}`);
  return state;
}

export async function payByCardAction(_previous: TCardState, formData: FormData): Promise<TCardState> {
  const uuid = linkOf(formData);
  const text = (name: string, max: number) => String(formData.get(name) ?? "").slice(0, max);
  const choices: TCardChoices = {
    installments: Number(text("installments", 2)) || 1,
    holderName: text("holderName", 100),
    expiry: text("expiry", 5),
  };
  if (!uuid || !(await hasPayAccess(uuid))) return cardState({ status: "accessExpired" }, choices);
  const formKey = z.uuid().safeParse(formData.get("formKey"));
  // A form without its key was not rendered by this page: nothing is sent, the answer carries a key.
  if (!formKey.success) return cardState({ status: "unavailable" }, choices);
  const parsed = ZCardPaymentInput.safeParse(
    Object.fromEntries(cardFields.map((field) => [field, String(formData.get(field) ?? "")])),
  );
  if (!parsed.success) {
    return cardState({ status: "invalid", fieldErrors: zodIssuesToFieldErrors(parsed.error.issues) }, choices);
  }
  const outcome = await payLinkByCardOnce(uuid, formKey.data, parsed.data, await publicActionContext());
  if (outcome.status === "paid") redirect(payPagePath(uuid));
  return cardState(outcome, choices);
}

export type TPixState = {
  status: "idle" | "ready" | "accessExpired" | "notPayable" | "busy" | "unavailable";
  charge?: TLinkPixCharge;
  message?: string;
};

/**
 * Issues (or reuses) the link's Pix charge; with `intent=check` the payer asks whether it was paid. A paid
 * charge leads to the page, which records the payment and shows the success state.
 */
export async function startPixAction(_previous: TPixState, formData: FormData): Promise<TPixState> {
  const uuid = linkOf(formData);
  if (!uuid || !(await hasPayAccess(uuid)))
    return { status: "accessExpired", message: (await payTranslator())("pix.outcome.accessExpired") };
  let charge: TLinkPixCharge;
  try {
    charge = await getOrCreateLinkPixCharge(uuid, await publicActionContext());
  } catch (error) {
    const status =
      isAppError(error) && error.messageKey === cardPaymentInProgressKey
        ? "busy"
        : isAppError(error) && ["CONFLICT", "FORBIDDEN", "NOT_FOUND"].includes(error.code)
          ? "notPayable"
          : "unavailable";
    if (status === "unavailable")
      log.warn({ err: error, linkPaymentUuid: uuid }, "pay page: Pix charge could not be issued");
    return { status, message: (await payTranslator())(`pix.outcome.${status}`) };
  }
  if (charge.status === "paid") redirect(payPagePath(uuid));
  const t = await payTranslator();
  if (charge.status === "expired") return { status: "ready", charge, message: t("pix.expired") };
  return { status: "ready", charge, message: formData.get("intent") === "check" ? t("pix.notPaidYet") : undefined };
}

// The payer has no account: the language lives in the cookie only (setLocaleAction saves nothing else without a session).
export async function switchPayLocaleAction(locale: TLocale): Promise<void> {
  await setLocaleAction(locale);
}
