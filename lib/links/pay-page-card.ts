import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { upsertCardPaymentFromGateway } from "@/lib/card-payments/mirror";
import {
  findCardRetryBlock,
  linkOrderKey,
  recordCardRetryAdvice,
  type TRetryBlock,
  type TRetryCard,
} from "@/lib/card-payments/retry-advice";
import { inTransaction } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { describeGatewayFailure, GatewayHttpError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payment-links";
import { getPayment } from "@/lib/gateway/payments";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { runIdempotent } from "@/lib/idempotency/idempotency";
import { log } from "@/lib/log";
import { cardBin, detectCardBrand, isCardExpiryValid, maskCardNumber, passesLuhn } from "@/lib/shared/card";
import { centsToAmount } from "@/lib/shared/money";
import { countCardPayment } from "@/lib/telemetry/metrics";
import { claimCardAttempt, countCardRefusal } from "./card-attempts";
import { refreshPaymentLink, upsertPaymentLinkFromGateway } from "./mirror";
import { installmentChoicesOf, loadLink, stateOf } from "./pay-page";
import { claimLinkForCard, closeLinkPixCharge, releaseCardClaim } from "./pix";
import { refusalMessageKey, type TRefusalMessageKey } from "./refusal-message";

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

// Joins the card payment mirror with what only this page knows; never fails the payer (the reconciler pulls it later).
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
      countCardPayment("refused");
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
  // The dashboard's card payments are counted by lib/gateway/call-tally.ts (a refusal is a 201); a link's is a 422.
  countCardPayment("approved");
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

// One payment per rendered form: its fresh key makes a repeat wait for the first attempt's outcome, not charge again.
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
