import "server-only";
import { db, withTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import type { TMirrorClient, TMirrorOutcome } from "@/lib/db/mirror-write";
import { getPaymentLink } from "@/lib/gateway/payment-links";
import type { TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import { readOrNullWhenUnknown } from "@/lib/mirror/read-through";
import { upsertMirrorRow } from "@/lib/mirror/upsert";
import { readConfirmedCopy, type TDriftSource, type TMirrorAuthority } from "@/lib/reconcile/drift";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";
import { isLinkSettledByPix, type TPixSettlementFields } from "./settlement";
import { paymentLinkStatusCodes, type TInstallmentOption } from "./types";

// Like the Pix mirror: idempotent, never backwards (PAID, CANCELLED final) unless a confirmed authoritative read corrects it.

const finalStatusCodes: number[] = [paymentLinkStatusCodes.PAID, paymentLinkStatusCodes.CANCELLED];
const dayMs = 24 * 60 * 60 * 1000;

// A link paid by its Pix charge stays CREATED/EXPIRED upstream by design (settlement.ts): not drift.
function isOpenUpstreamButSettledByPix(existing: TPixSettlementFields, next: number): boolean {
  const isOpenUpstream = next === paymentLinkStatusCodes.CREATED || next === paymentLinkStatusCodes.EXPIRED;
  return isOpenUpstream && isLinkSettledByPix(existing);
}

function acceptsLinkStatus(current: number, next: number): boolean {
  if (current === next) return true;
  if (finalStatusCodes.includes(current)) return false;
  if (current === paymentLinkStatusCodes.EXPIRED) return next === paymentLinkStatusCodes.CANCELLED;
  return true;
}

function linkFields(link: TPaymentLink) {
  const creationDate = new Date(link.dataCriacao);
  const installmentOptions: TInstallmentOption[] = link.opcoesParcelamento.map((option) => ({
    installments: option.numberInstallments,
    amountCents: amountToCents(option.amountInstallment),
  }));
  return {
    linkPaymentId: link.linkPaymentId,
    statusCode: link.status.code,
    statusDescription: link.status.description,
    amountCents: amountToCents(link.valor),
    payerName: link.nomePagador,
    // Upstream returns a CPF/CNPJ as digits and keeps a foreign document as typed.
    payerDocument: link.isEstrangeiro ? link.numeroInscricao : onlyDigits(link.numeroInscricao),
    isForeignPayer: link.isEstrangeiro,
    installments: link.numeroParcelas,
    installmentOptions: installmentOptions as Prisma.InputJsonArray,
    acceptedMethodCodes: link.metodosPagamentoAceitos.map((method) => method.code),
    paymentUrl: link.urlPagamento,
    verificationCode: String(link.tokenVerificacao),
    description: link.descricao ?? null,
    userReference: link.userReference ?? null,
    creationDate,
    expirationDays: link.diasExpiracao,
    // Upstream expires a link diasExpiracao × 24 h after its creation.
    expiresAt: new Date(creationDate.getTime() + link.diasExpiracao * dayMs),
    paidMethodCode: link.metodoPagamento?.code ?? null,
    paidMethodDescription: link.metodoPagamento?.description ?? null,
    paymentReceipt: link.comprovantePagamento,
    transactionId: link.identificadorTransacao,
    raw: link as unknown as Prisma.InputJsonObject,
  };
}

function paymentLinkLockKey(linkPaymentUuid: string): string {
  return `payment_link:${linkPaymentUuid}`;
}

// One lock per link until the transaction ends (re-entrant).
export async function lockPaymentLink(tx: TMirrorClient, linkPaymentUuid: string): Promise<void> {
  await takeTransactionLock(tx, paymentLinkLockKey(linkPaymentUuid));
}

type UpsertLinkOptions = {
  client?: TMirrorClient;
  now?: Date;
  createdById?: string | null;
  traceParent?: string | null;
  authority?: TMirrorAuthority;
};

async function writeLink(
  tx: TMirrorClient,
  link: TPaymentLink,
  options: UpsertLinkOptions,
): Promise<{ outcome: TMirrorOutcome; link: PaymentLink }> {
  const syncedAt = options.now ?? new Date();
  const fields = linkFields(link);
  // Upstream's link has no payment date: the mirror keeps when it first saw the payment.
  const isPaid = fields.statusCode === paymentLinkStatusCodes.PAID;
  const where = { linkPaymentUuid: link.linkPaymentUuid };
  const { outcome, row } = await upsertMirrorRow(tx, {
    lockKey: paymentLinkLockKey(link.linkPaymentUuid),
    syncedAt,
    find: () => tx.paymentLink.findUnique({ where }),
    create: () =>
      tx.paymentLink.create({
        data: {
          linkPaymentUuid: link.linkPaymentUuid,
          ...fields,
          paidAt: isPaid ? syncedAt : null,
          syncedAt,
          createdById: options.createdById ?? null,
          traceParent: options.traceParent ?? null,
        },
      }),
    move: (existing) =>
      isOpenUpstreamButSettledByPix(existing, fields.statusCode)
        ? "stale"
        : acceptsLinkStatus(existing.statusCode, fields.statusCode)
          ? "accept"
          : "backward",
    authority: options.authority,
    drift: (existing, move) =>
      move === "backward" || existing.amountCents !== fields.amountCents
        ? {
            kind: "payment_link",
            resourceId: link.linkPaymentUuid,
            mirror: existing,
            gateway: { ...existing, ...fields, paidAt: isPaid ? existing.paidAt : null },
            isHeldForReview:
              existing.amountCents !== fields.amountCents && existing.statusCode === paymentLinkStatusCodes.PAID,
          }
        : null,
    // A payment the gateway does not hold leaves no payment date behind.
    data: (existing, move) => ({
      ...fields,
      paidAt: isPaid ? (existing.paidAt ?? syncedAt) : move === "accept" ? existing.paidAt : null,
    }),
    update: (data, existing) =>
      tx.paymentLink.update({
        where,
        data: {
          ...data,
          createdById: existing.createdById ?? options.createdById ?? undefined,
          traceParent: existing.traceParent ?? options.traceParent ?? undefined,
        },
      }),
    publish: [{ kind: "payment_link", id: link.linkPaymentUuid }],
  });
  return { outcome, link: row };
}

export function upsertPaymentLinkFromGateway(
  link: TPaymentLink,
  options: UpsertLinkOptions = {},
): Promise<{ outcome: TMirrorOutcome; link: PaymentLink }> {
  return withTransaction(options.client, (tx) => writeLink(tx, link, options));
}

async function isLinkBehindMirror(link: TPaymentLink): Promise<boolean> {
  const row = await db.paymentLink.findUnique({
    where: { linkPaymentUuid: link.linkPaymentUuid },
    select: { statusCode: true, pixPaidTxid: true },
  });
  if (!row || isOpenUpstreamButSettledByPix(row, link.status.code)) return false;
  return !acceptsLinkStatus(row.statusCode, link.status.code);
}

export function refreshPaymentLink(linkPaymentUuid: string): Promise<PaymentLink | null> {
  return readOrNullWhenUnknown(async () => (await syncPaymentLinkFromGateway(linkPaymentUuid, "refresh")).link);
}

export const isPaymentLinkBehindMirror = isLinkBehindMirror;

// Authoritative read of one link: written even backwards once a second read confirms it; drift recorded.
export async function syncPaymentLinkFromGateway(
  linkPaymentUuid: string,
  source: TDriftSource,
  read: () => Promise<TPaymentLink> = () => getPaymentLink(linkPaymentUuid),
  isReviewed = false,
): Promise<{ outcome: TMirrorOutcome; link: PaymentLink; upstream: TPaymentLink }> {
  const { copy, isConfirmedBehind } = await readConfirmedCopy(read, isLinkBehindMirror);
  const result = await upsertPaymentLinkFromGateway(copy, {
    authority: { source, isBackwardConfirmed: isConfirmedBehind, isReviewed },
  });
  return { ...result, upstream: copy };
}
