import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { countRateLimitHit, getRateLimitStatus, resetRateLimit } from "@/lib/auth/rate-limit";
import type { TRateLimitRule } from "@/lib/auth/rate-limit-window";
import { getPayPageEnv } from "@/lib/config/pay-page-env";
import { db, inTransaction } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { describeGatewayFailure, GatewayHttpError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payment-links";
import { getPayment } from "@/lib/gateway/payments";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { runIdempotent } from "@/lib/idempotency/idempotency";
import { log } from "@/lib/log";
import { readThroughMirror } from "@/lib/mirror/read-through";
import { upsertCardPaymentFromGateway } from "@/lib/payments/mirror";
import {
  findCardRetryBlock,
  linkOrderKey,
  recordCardRetryAdvice,
  type TRetryBlock,
  type TRetryCard,
} from "@/lib/payments/retry-advice";
import { cardBin, detectCardBrand, isCardExpiryValid, maskCardNumber, passesLuhn } from "@/lib/shared/card";
import { centsToAmount } from "@/lib/shared/money";
import { claimCardAttempt, countCardRefusal, getCardLock } from "./card-attempts";
import { refreshPaymentLink, upsertPaymentLinkFromGateway } from "./mirror";
import {
  claimUnknownLinkLookup,
  forgetUnknownLink,
  isRecentlyUnknownLink,
  releaseFoundLinkLookup,
  rememberUnknownLink,
} from "./pay-page-lookup";
import { claimLinkForCard, closeLinkPixCharge, releaseCardClaim, syncLinkPixPayment } from "./pix";
import { refusalMessageKey, type TRefusalMessageKey } from "./refusal-message";
import { ZLinkVerificationCode } from "./schemas";
import { isLinkSettledByPix, type TPixSettlementFields } from "./settlement";
import { paymentLinkStatusCodes } from "./types";

export { ZLinkPaymentUuid } from "./schemas";

// The hosted payment page: the payer sees no staff data, no internal id but the public uuid, never the code.

export type TPayPageState = "payable" | "paid" | "expired" | "cancelled" | "unavailable";
export type TInstallmentChoice = { installments: number; firstCents: number; otherCents: number };

export type TPayPageLink = {
  linkPaymentUuid: string;
  state: TPayPageState;
  merchantName: string;
  description: string | null;
  amountCents: number;
  installmentChoices: TInstallmentChoice[];
  acceptsCard: boolean;
  acceptsPix: boolean;
  paidMethod: "card" | "pix" | null;
  // Card attempts for this link are used up until then (ISO 8601); Pix stays open.
  cardLockedUntil: string | null;
};

// An open link's mirror older than this is read upstream first (it may have changed).
const openLinkMaxAgeMs = 10_000;

function stateOf(link: Pick<PaymentLink, "statusCode" | "expiresAt"> & TPixSettlementFields, now: Date): TPayPageState {
  // Paid by Pix: upstream still says CREATED (lib/links/settlement.ts), and the link is paid all the same.
  if (isLinkSettledByPix(link)) return "paid";
  switch (link.statusCode) {
    case paymentLinkStatusCodes.CREATED:
      return link.expiresAt.getTime() > now.getTime() ? "payable" : "expired";
    case paymentLinkStatusCodes.EXPIRED:
      return "expired";
    case paymentLinkStatusCodes.PAID:
      return "paid";
    case paymentLinkStatusCodes.CANCELLED:
      return "cancelled";
    default:
      return "unavailable";
  }
}

const ZInstallmentOptions = z.array(z.object({ installments: z.number().int(), amountCents: z.number().int() }));

// Upstream's amountInstallment is the first installment, which carries the leftover cents.
function installmentChoicesOf(link: Pick<PaymentLink, "installmentOptions" | "amountCents">): TInstallmentChoice[] {
  const parsed = ZInstallmentOptions.safeParse(link.installmentOptions);
  if (!parsed.success) return [{ installments: 1, firstCents: link.amountCents, otherCents: 0 }];
  return parsed.data.map(({ installments, amountCents }) => ({
    installments,
    firstCents: amountCents,
    otherCents: installments > 1 ? Math.round((link.amountCents - amountCents) / (installments - 1)) : 0,
  }));
}

function toPayPageLink(link: PaymentLink, now: Date, cardLockedUntil: string | null): TPayPageLink {
  return {
    linkPaymentUuid: link.linkPaymentUuid,
    state: stateOf(link, now),
    merchantName: getPayPageEnv().merchantDisplayName,
    description: link.description,
    amountCents: link.amountCents,
    installmentChoices: installmentChoicesOf(link),
    acceptsCard: link.acceptedMethodCodes.includes(paymentLinkMethodCodes.CREDIT_CARD),
    acceptsPix: link.acceptedMethodCodes.includes(paymentLinkMethodCodes.PIX),
    paidMethod:
      isLinkSettledByPix(link) || link.paidMethodCode === paymentLinkMethodCodes.PIX
        ? "pix"
        : link.paidMethodCode === paymentLinkMethodCodes.CREDIT_CARD
          ? "card"
          : null,
    cardLockedUntil,
  };
}

async function loadLink(linkPaymentUuid: string, now: Date, ip: string | null = null): Promise<PaymentLink | null> {
  const mirrored = await db.paymentLink.findUnique({ where: { linkPaymentUuid } });
  if (
    mirrored &&
    (mirrored.statusCode !== paymentLinkStatusCodes.CREATED ||
      isLinkSettledByPix(mirrored) ||
      now.getTime() - mirrored.syncedAt.getTime() < openLinkMaxAgeMs)
  )
    return mirrored;
  if (!mirrored) {
    // Each unknown uuid would be an mTLS call: answered from memory for a while, and counted per address.
    if (isRecentlyUnknownLink(linkPaymentUuid, now)) return null;
    await claimUnknownLinkLookup(ip, now);
  }
  return readThroughMirror({
    read: async () => {
      const upstream = await refreshPaymentLink(linkPaymentUuid);
      if (upstream) forgetUnknownLink(linkPaymentUuid);
      else if (!mirrored) rememberUnknownLink(linkPaymentUuid, now);
      if (upstream && !mirrored) await releaseFoundLinkLookup(ip);
      return upstream ?? mirrored;
    },
    mirrored,
    // No answer proves nothing unknown, so the lookup is not held against the address.
    unmirrored: async (error) => {
      await releaseFoundLinkLookup(ip);
      return error;
    },
    warning: { fields: { linkPaymentUuid }, message: "payment link shown from the mirror: the gateway read failed" },
  });
}

export async function getPayPageLink(
  linkPaymentUuid: string,
  options: { ip?: string | null } = {},
): Promise<TPayPageLink | null> {
  const now = new Date();
  let link = await loadLink(linkPaymentUuid, now, options.ip ?? null);
  if (!link) return null;
  // A payer who paid by Pix and comes back: the charge's payment turns the link paid.
  if (stateOf(link, now) === "payable" && link.pixChargeTxid) {
    await syncLinkPixPayment(link).catch((error: unknown) =>
      log.warn({ err: error, linkPaymentUuid }, "link Pix charge read failed"),
    );
    link = (await db.paymentLink.findUnique({ where: { linkPaymentUuid } })) ?? link;
  }
  const cardLock = stateOf(link, now) === "payable" ? await getCardLock(linkPaymentUuid, now) : null;
  return toPayPageLink(link, now, cardLock?.lockedUntil ?? null);
}

// Per link: 5 tries per window, each full window lengthening the next (15 min, 1 h, 4 h, 24 h); 20 wrong codes since
// the last right one lock it for good (20 of 900,000 codes). The per-IP limit counts wrong codes only (NAT).
const verifyLinkRule: TRateLimitRule = { limit: 5, windowMs: 15 * 60_000 };
const verifyBackoffWindowsMs = [15 * 60_000, 60 * 60_000, 4 * 60 * 60_000, 24 * 60 * 60_000] as const;
const verifyWrongCodeCap = 20;
const verifyIpRule: TRateLimitRule = { limit: 30, windowMs: 15 * 60_000 };
// Longer than any link lives (365 days), and past the rate-limit retention, which removes expired counters only.
const verifyCapRule: TRateLimitRule = { limit: verifyWrongCodeCap, windowMs: 400 * 24 * 60 * 60_000 };

const linkKey = (linkPaymentUuid: string) => `pay-verify:link:${linkPaymentUuid}`;
const wrongCodesKey = (linkPaymentUuid: string) => `pay-verify:wrong:${linkPaymentUuid}`;
const ipKey = (ip: string | null) => `pay-verify:ip:${ip ?? "unknown"}`;

function verifyWindowRule(wrongCodes: number): TRateLimitRule {
  const level = Math.min(Math.floor(wrongCodes / verifyLinkRule.limit), verifyBackoffWindowsMs.length - 1);
  return { limit: verifyLinkRule.limit, windowMs: verifyBackoffWindowsMs[level]! };
}

async function countWrongCodes(linkPaymentUuid: string, now: Date): Promise<number> {
  const bucket = await db.rateLimitBucket.findUnique({ where: { key: wrongCodesKey(linkPaymentUuid) } });
  return bucket && bucket.expiresAt > now ? bucket.count : 0;
}

export type TVerificationLock = { wrongCodes: number };

// For staff: the payer can no longer verify; upstream has no call that issues a new code.
export async function getVerificationLock(
  linkPaymentUuid: string,
  now = new Date(),
): Promise<TVerificationLock | null> {
  const wrongCodes = await countWrongCodes(linkPaymentUuid, now);
  return wrongCodes >= verifyWrongCodeCap ? { wrongCodes } : null;
}

export type TVerifyOutcome =
  | { status: "ok" }
  | { status: "wrong" }
  | { status: "limited"; retryAfterMs: number }
  | { status: "locked" }
  | { status: "unavailable" };

// Upstream's verify decides. Attempts count atomically first, so parallel guesses cannot slip past the limit; a wrong
// code and an unknown link answer the same.
export async function verifyPayPageCode(
  linkPaymentUuid: string,
  code: string,
  ip: string | null,
): Promise<TVerifyOutcome> {
  const now = new Date();
  const ipStatus = await getRateLimitStatus(ipKey(ip), verifyIpRule, now);
  if (ipStatus.isLimited) return { status: "limited", retryAfterMs: ipStatus.retryAfterMs };
  const wrongSoFar = await countWrongCodes(linkPaymentUuid, now);
  if (wrongSoFar >= verifyWrongCodeCap) return { status: "locked" };
  const linkWindow = await countRateLimitHit(linkKey(linkPaymentUuid), verifyWindowRule(wrongSoFar), now);
  if (linkWindow.count > verifyLinkRule.limit)
    return { status: "limited", retryAfterMs: linkWindow.expiresAt.getTime() - now.getTime() };
  const wrongCodes = await countRateLimitHit(wrongCodesKey(linkPaymentUuid), verifyCapRule, now);
  if (wrongCodes.count > verifyWrongCodeCap) return { status: "locked" };

  const wrong = async (): Promise<TVerifyOutcome> => {
    await countRateLimitHit(ipKey(ip), verifyIpRule, now);
    log.warn({ linkPaymentUuid, ip, attempt: linkWindow.count }, "pay page: wrong verification code");
    return { status: "wrong" };
  };
  if (!ZLinkVerificationCode.safeParse(code).success || isRecentlyUnknownLink(linkPaymentUuid, now)) return wrong();
  try {
    const link = await gateway.verifyPaymentLink(linkPaymentUuid, code);
    await upsertPaymentLinkFromGateway(link);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 404) rememberUnknownLink(linkPaymentUuid, now);
    if (error instanceof GatewayHttpError && (error.status === 400 || error.status === 404)) return wrong();
    // Not the error itself: a connection error's cause may carry the request path, code included.
    log.warn(
      { linkPaymentUuid, failure: describeGatewayFailure(error) },
      "pay page: verification could not be checked",
    );
    await db.rateLimitBucket.updateMany({
      where: { key: wrongCodesKey(linkPaymentUuid), windowStart: wrongCodes.windowStart, count: { gt: 0 } },
      data: { count: { decrement: 1 } },
    });
    return { status: "unavailable" };
  }
  await resetRateLimit(linkKey(linkPaymentUuid));
  await resetRateLimit(wrongCodesKey(linkPaymentUuid));
  return { status: "ok" };
}

// Card data lives here only for the request: it goes upstream and nowhere else (database, log, audit, errors).
export const ZCardPaymentInput = z.object({
  cardNumber: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, ""))
    .pipe(
      z
        .string()
        .regex(/^\d{12,19}$/, { error: "cardNumberInvalid" })
        .refine(passesLuhn, { error: "cardNumberInvalid" }),
    )
    .refine((value) => detectCardBrand(value) !== null, { error: "cardBrandUnsupported" }),
  holderName: z.string().trim().min(2, { error: "holderNameRequired" }).max(100, { error: "holderNameRequired" }),
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, { error: "expiryInvalid" })
    .refine((value) => isCardExpiryValid(value), { error: "expiryPast" }),
  securityCode: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, { error: "securityCodeInvalid" }),
  installments: z.coerce.number().int().min(1).max(12),
});
export type TCardPaymentInput = z.output<typeof ZCardPaymentInput>;

export type TCardOutcome =
  | { status: "paid" }
  | { status: "refused"; messageKey: TRefusalMessageKey }
  // An earlier refusal's merchantAdviceCode forbids this card on this link (for now, or for good).
  | { status: "adviceBlocked"; advice: TRetryBlock["kind"]; retryAfter: string | null }
  | { status: "locked"; lockedUntil: string }
  | { status: "busy" }
  | { status: "notPayable" }
  | { status: "invalid"; fieldErrors: Record<string, string> }
  | { status: "unavailable" };

// 2.1 tipoParcelamento (meaning from sandbox/README.md): 3 = one payment, 4 = installments without interest.
const installmentTypeFor = (installments: number) => (installments === 1 ? "3" : "4");

const auditFields = (context: TChangeContext, linkPaymentUuid: string) =>
  auditFieldsOf(context, "payment_link", linkPaymentUuid);

function refusalOf(
  error: GatewayHttpError,
): { codigo: string; mensagem: string | null; merchantAdviceCode: string | null } | null {
  if (error.status !== 422 || error.body.shape !== "payment") return null;
  const { codigo, mensagem, merchantAdviceCode } = error.body as Record<string, unknown>;
  if (typeof codigo !== "string") return null;
  return {
    codigo,
    mensagem: typeof mensagem === "string" ? mensagem : null,
    merchantAdviceCode: typeof merchantAdviceCode === "string" ? merchantAdviceCode : null,
  };
}

// The sandbox's 422 names the refused payment (sandbox/README.md, "Payment links"); the spec shows no body.
function refusedPaymentIdOf(error: GatewayHttpError): string | null {
  const { identificadorTransacao } = error.body as Record<string, unknown>;
  return typeof identificadorTransacao === "string" && identificadorTransacao ? identificadorTransacao : null;
}

// Joins the card payment mirror with what only this page knows (BIN, last four, installments). Never fails the payer:
// the reconciler pulls it later.
async function mirrorLinkCardPayment(
  paymentId: string | null,
  linkPaymentUuid: string,
  card: TCardPaymentInput,
  installmentType: string,
): Promise<void> {
  if (!paymentId) return;
  try {
    await upsertCardPaymentFromGateway(await getPayment(paymentId), {
      origin: "LINK",
      linkPaymentUuid,
      cardBin: cardBin(card.cardNumber),
      cardLastFour: maskCardNumber(card.cardNumber),
      installmentType,
      installmentCount: card.installments,
    });
  } catch (error) {
    log.warn(
      { linkPaymentUuid, paymentId, failure: describeGatewayFailure(error) },
      "pay page: the card payment could not be mirrored; the reconciler will pull it",
    );
  }
}

const retryCardOf = (card: TCardPaymentInput): TRetryCard => ({
  bin: cardBin(card.cardNumber),
  lastFour: maskCardNumber(card.cardNumber),
  expiry: card.expiry,
});

export async function payLinkByCard(
  linkPaymentUuid: string,
  card: TCardPaymentInput,
  context: TChangeContext,
): Promise<TCardOutcome> {
  const link = await loadLink(linkPaymentUuid, new Date());
  if (
    !link ||
    stateOf(link, new Date()) !== "payable" ||
    !link.acceptedMethodCodes.includes(paymentLinkMethodCodes.CREDIT_CARD)
  )
    return { status: "notPayable" };
  if (!installmentChoicesOf(link).some((choice) => choice.installments === card.installments)) {
    return { status: "invalid", fieldErrors: { installments: "installmentsInvalid" } };
  }
  const bandeiraCartao = detectCardBrand(card.cardNumber)!.bandeiraCartao;
  // Before the attempt is counted or upstream asked: obeying the advice costs the payer nothing.
  const block = await findCardRetryBlock(linkOrderKey(linkPaymentUuid), retryCardOf(card));
  if (block) {
    log.warn({ linkPaymentUuid, advice: block.kind }, "pay page: card attempt refused by an earlier advice code");
    return {
      status: "adviceBlocked",
      advice: block.kind,
      retryAfter: block.kind === "retryLater" ? block.retryAfter.toISOString() : null,
    };
  }
  const attempt = await claimCardAttempt(linkPaymentUuid, context.ip ?? null);
  if (!attempt.isAllowed) {
    log.warn({ linkPaymentUuid, ip: context.ip }, "pay page: card attempt refused by the attempt limit");
    return { status: "locked", lockedUntil: attempt.lockedUntil.toISOString() };
  }
  // The claim keeps the page from issuing a Pix charge while the card is with the gateway, and a second card.
  const claim = await claimLinkForCard(linkPaymentUuid);
  if (claim.status !== "claimed") {
    await attempt.release();
    return { status: claim.status === "busy" ? "busy" : "notPayable" };
  }
  try {
    return await chargeCard(claim.link, card, bandeiraCartao, attempt, context);
  } finally {
    await releaseCardClaim(linkPaymentUuid, claim.until);
  }
}

async function chargeCard(
  link: PaymentLink,
  card: TCardPaymentInput,
  bandeiraCartao: string,
  attempt: { release: () => Promise<void> },
  context: TChangeContext,
): Promise<TCardOutcome> {
  const { linkPaymentUuid } = link;
  try {
    if (await closeLinkPixCharge(link, context)) {
      await attempt.release();
      return { status: "notPayable" };
    }
  } catch (error) {
    log.warn(
      { err: error, linkPaymentUuid },
      "pay page: the link's open Pix charge could not be closed before a card payment",
    );
    await attempt.release();
    return { status: "unavailable" };
  }

  const audit = { method: "card", installments: card.installments, bandeiraCartao, amountCents: link.amountCents };
  const installmentType = installmentTypeFor(card.installments);
  let paid: Awaited<ReturnType<typeof gateway.confirmPaymentLink>>;
  try {
    paid = await gateway.confirmPaymentLink(linkPaymentUuid, {
      identificacaoPagamento: randomUUID(),
      numeroParcelas: card.installments,
      tipoParcelamento: installmentType,
      bandeiraCartao,
      valor: centsToAmount(link.amountCents),
      dataExpiracao: card.expiry,
      codigoSeguranca: card.securityCode,
      numeroCartao: card.cardNumber,
    });
  } catch (error) {
    const refusal = error instanceof GatewayHttpError ? refusalOf(error) : null;
    if (refusal) {
      await recordAudit({
        ...auditFields(context, linkPaymentUuid),
        action: "payment_link.payment_refused",
        metadata: { ...audit, outcome: "refused", ...refusal },
      });
      await countCardRefusal();
      await recordCardRetryAdvice(undefined, {
        orderKey: linkOrderKey(linkPaymentUuid),
        card: retryCardOf(card),
        merchantAdviceCode: refusal.merchantAdviceCode,
        paymentId: refusedPaymentIdOf(error as GatewayHttpError),
      });
      await mirrorLinkCardPayment(
        refusedPaymentIdOf(error as GatewayHttpError),
        linkPaymentUuid,
        card,
        installmentType,
      );
      return { status: "refused", messageKey: refusalMessageKey(refusal) };
    }
    log.warn({ linkPaymentUuid, failure: describeGatewayFailure(error) }, "pay page: card payment failed");
    // Only refusals count toward the lock: an outage or a 409 must not lock out the honest payer.
    await attempt.release();
    if (error instanceof GatewayHttpError && error.status === 409) {
      await refreshPaymentLink(linkPaymentUuid).catch(() => null);
      return { status: "notPayable" };
    }
    if (error instanceof GatewayHttpError && error.status === 400)
      return { status: "invalid", fieldErrors: { form: "cardRejected" } };
    return { status: "unavailable" };
  }
  await inTransaction(async (tx) => {
    await upsertPaymentLinkFromGateway(paid, { client: tx });
    await recordAudit(
      {
        ...auditFields(context, linkPaymentUuid),
        action: "payment_link.paid",
        metadata: { ...audit, outcome: "paid", paymentReceipt: paid.comprovantePagamento },
      },
      tx,
    );
  });
  // identificadorTransacao of a paid link is the payment's id (GET /payments/{id}).
  await mirrorLinkCardPayment(paid.identificadorTransacao, linkPaymentUuid, card, installmentType);
  return { status: "paid" };
}

// How long a repeated submit waits for the first one's answer: longer than one gateway call (connect + response).
const cardSubmitWaitMs = 25_000;

// One payment per rendered card form: the page's hidden fresh key makes a repeat (double click, resent form) wait for
// the first attempt's outcome instead of charging again. Only the outcome is kept, never card data.
export async function payLinkByCardOnce(
  linkPaymentUuid: string,
  formKey: string,
  card: TCardPaymentInput,
  context: TChangeContext,
): Promise<TCardOutcome> {
  try {
    const { resultId } = await runIdempotent({
      scope: "pay_page_card",
      key: `${linkPaymentUuid}:${formKey}`,
      request: { linkPaymentUuid },
      waitMs: cardSubmitWaitMs,
      run: async () => JSON.stringify(await payLinkByCard(linkPaymentUuid, card, context)),
    });
    return JSON.parse(resultId) as TCardOutcome;
  } catch (error) {
    // The first attempt is still with the gateway: the payer reloads and sees its outcome.
    if (isAppError(error) && error.code === "CONFLICT") return { status: "busy" };
    throw error;
  }
}
