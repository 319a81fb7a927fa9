import "server-only";
import { db, inTransaction } from "@/lib/db/client";
import { changedFields, type TMirrorClient, type TMirrorOutcome } from "@/lib/db/mirror-write";
import { publishChange } from "@/lib/events/bus";
import type { TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";
import { paymentLinkStatusCodes, type TInstallmentOption } from "./types";

// Like the Pix mirror: idempotent, and a link never moves back (CREATED 1 → EXPIRED 2 → CANCELLED 4,
// CREATED → PAID 3; PAID and CANCELLED are final), so a late or replayed snapshot cannot undo a payment.

const finalStatusCodes: number[] = [paymentLinkStatusCodes.PAID, paymentLinkStatusCodes.CANCELLED];
const dayMs = 24 * 60 * 60 * 1000;

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

// One lock per link, held until the transaction ends (re-entrant: a caller may take it first).
export async function lockPaymentLink(tx: TMirrorClient, linkPaymentUuid: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payment_link:${linkPaymentUuid}`}, 0))`;
}

type UpsertLinkOptions = { client?: TMirrorClient; now?: Date; createdById?: string | null };

async function writeLink(
  tx: TMirrorClient,
  link: TPaymentLink,
  options: UpsertLinkOptions,
): Promise<{ outcome: TMirrorOutcome; link: PaymentLink }> {
  const syncedAt = options.now ?? new Date();
  await lockPaymentLink(tx, link.linkPaymentUuid);
  const fields = linkFields(link);
  // Upstream's link has no payment date: the mirror keeps when it first saw the payment.
  const isPaid = fields.statusCode === paymentLinkStatusCodes.PAID;
  const existing = await tx.paymentLink.findUnique({ where: { linkPaymentUuid: link.linkPaymentUuid } });
  if (!existing) {
    const created = await tx.paymentLink.create({
      data: {
        linkPaymentUuid: link.linkPaymentUuid,
        ...fields,
        paidAt: isPaid ? syncedAt : null,
        syncedAt,
        createdById: options.createdById ?? null,
      },
    });
    await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
    return { outcome: "created", link: created };
  }
  if (!acceptsLinkStatus(existing.statusCode, fields.statusCode)) return { outcome: "stale", link: existing };
  const changes = changedFields(existing, { ...fields, paidAt: existing.paidAt ?? (isPaid ? syncedAt : null) });
  const isChanged = Object.keys(changes).length > 0;
  const updated = await tx.paymentLink.update({
    where: { linkPaymentUuid: link.linkPaymentUuid },
    data: {
      ...changes,
      syncedAt,
      createdById: existing.createdById ?? options.createdById ?? undefined,
      ...(isChanged ? {} : { updatedAt: existing.updatedAt }),
    },
  });
  if (isChanged) await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
  return { outcome: isChanged ? "updated" : "unchanged", link: updated };
}

export function upsertPaymentLinkFromGateway(
  link: TPaymentLink,
  options: UpsertLinkOptions = {},
): Promise<{ outcome: TMirrorOutcome; link: PaymentLink }> {
  return options.client
    ? writeLink(options.client, link, options)
    : inTransaction((tx) => writeLink(tx, link, options));
}

/** Whether the mirror holds this link with the same amount: one indexed read. */
export async function isPaymentLinkMirroredAs(link: TPaymentLink): Promise<boolean> {
  const row = await db.paymentLink.findUnique({
    where: { linkPaymentUuid: link.linkPaymentUuid },
    select: { amountCents: true },
  });
  return row?.amountCents === amountToCents(link.valor);
}
