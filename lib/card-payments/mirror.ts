import "server-only";
import { db, withTransaction } from "@/lib/db/client";
import { takeTransactionLock } from "@/lib/db/locks";
import { changedFields, type TMirrorClient, type TMirrorOutcome } from "@/lib/db/mirror-write";
import { publishChange } from "@/lib/events/bus";
import type { TPaymentCancellation, TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import type { CardPayment, CardPaymentInstallment, CardPaymentOrigin, Prisma } from "@/lib/generated/prisma/client";
import { upsertMirrorRow } from "@/lib/mirror/upsert";
import type { TMirrorAuthority } from "@/lib/reconcile/drift";
import { isCardPaymentApproved } from "@/lib/shared/card-approval";
import { parseGatewayDateTime } from "@/lib/shared/gateway-date";
import { amountToCents } from "@/lib/shared/money";
import { cancelledCentsOf, cardPaymentStatuses } from "./types";

// No card webhooks: the mirror learns from this app's calls and the gateway's list; writes never leave a final status.

export type TMirroredCardPayment = CardPayment & { installments: CardPaymentInstallment[] };

/** What the app knows of a payment beyond the 2.2 answer: only the caller that made it knows the card's BIN. */
export type TCardPaymentKnowledge = {
  origin: CardPaymentOrigin;
  cardBin?: string | null;
  cardLastFour?: string | null;
  cardToken?: string | null;
  installmentType?: string | null;
  installmentCount?: number | null;
  linkPaymentUuid?: string | null;
  createdById?: string | null;
};

// `authority`: a single-resource read; confirmed twice, it moves even a final status, and the drift is recorded.
type TWriteOptions = { client?: TMirrorClient; now?: Date; authority?: TMirrorAuthority };

const finalStatuses: string[] = [cardPaymentStatuses.CANCELLED, cardPaymentStatuses.REFUSED];

function acceptsStatus(current: string, next: string): boolean {
  return current === next || !finalStatuses.includes(current);
}

// Held by every write of one payment, and by a cancel while it claims the payment (lib/card-payments/cancel.ts).
export async function lockCardPayment(tx: TMirrorClient, id: string): Promise<void> {
  await takeTransactionLock(tx, cardPaymentLockKey(id));
}

export function cardPaymentLockKey(id: string): string {
  return `card_payment:${id}`;
}

function transactionFields(transaction: TPaymentTransaction) {
  const authorizedAt = parseGatewayDateTime(transaction.dataAutorizacao);
  const paidAt = parseGatewayDateTime(transaction.dataPagamento);
  return {
    orderId: transaction.identificadorPagamento ?? null,
    status: transaction.status,
    responseCode: transaction.codigo,
    responseMessage: transaction.mensagem,
    isApproved: isCardPaymentApproved(transaction),
    amountCents: amountToCents(transaction.valor),
    paymentType: transaction.tipoPagamento ?? null,
    brandCode: transaction.bandeiraCartao ?? null,
    authorizationCode: transaction.codigoAutorizacao ?? null,
    authorizerMessage: transaction.mensagemAutorizador ?? null,
    authorizationNumber: transaction.numeroAutorizacao ?? null,
    acquirerTransactionId: transaction.identicadorPagamentoAdquirente ?? null,
    acquirerCode: transaction.codigoAdquirente ?? null,
    acquirerName: transaction.nomeAdquirente ?? null,
    merchantUsn: transaction.merchantUsn ?? null,
    ecommerceGatewayUsn: transaction.ecommerceGatewayUsn ?? null,
    gatewayUsn: transaction.gatewayUsn ?? null,
    hostUsn: transaction.hostUsn ?? null,
    issuer: transaction.emissor ?? null,
    authorizerMerchantId: transaction.authorizerMerchantId ?? null,
    terminalId: transaction.terminalId ?? null,
    recurrenceId: transaction.recorrenciaId ?? null,
    merchantAdviceCode: transaction.merchantAdviceCode ?? null,
    authorizedAt,
    paidAt,
    customerReceipt: transaction.cupomCliente ?? null,
    merchantReceipt: transaction.cupomEstabelecimento ?? null,
    raw: transaction as unknown as Prisma.InputJsonObject,
  };
}

function installmentRows(transaction: TPaymentTransaction) {
  return (transaction.parcelas ?? []).map((installment) => ({
    id: installment.id,
    number: installment.numeroParcela,
    amountCents: amountToCents(installment.valorParcela),
    dueDate: installment.dataVencimento.slice(0, 10),
  }));
}

// What the caller knows fills gaps and never erases: a list refresh knows no BIN, the terminal that made it does.
function knowledgeFields(knowledge: TCardPaymentKnowledge, existing: CardPayment | null, parcelas: number) {
  const keep = <T>(known: T | null | undefined, current: T | null | undefined): T | null => known ?? current ?? null;
  const isMoreSpecific = !existing || (existing.origin === "GATEWAY" && knowledge.origin !== "GATEWAY");
  return {
    origin: isMoreSpecific ? knowledge.origin : existing.origin,
    cardBin: keep(knowledge.cardBin, existing?.cardBin),
    cardLastFour: keep(knowledge.cardLastFour, existing?.cardLastFour),
    cardToken: keep(knowledge.cardToken, existing?.cardToken),
    installmentType: keep(knowledge.installmentType, existing?.installmentType),
    installmentCount: knowledge.installmentCount ?? (parcelas || existing?.installmentCount || 1),
    linkPaymentUuid: keep(knowledge.linkPaymentUuid, existing?.linkPaymentUuid),
  };
}

async function writeInstallments(tx: TMirrorClient, paymentId: string, transaction: TPaymentTransaction) {
  const rows = installmentRows(transaction);
  if (rows.length === 0) return false;
  const existing = await tx.cardPaymentInstallment.findMany({ where: { paymentId }, orderBy: { number: "asc" } });
  const isSame =
    existing.length === rows.length &&
    rows.every((row, index) => Object.keys(changedFields(existing[index]!, { ...row, paymentId })).length === 0);
  if (isSame) return false;
  await tx.cardPaymentInstallment.deleteMany({ where: { paymentId } });
  await tx.cardPaymentInstallment.createMany({ data: rows.map((row) => ({ ...row, paymentId })) });
  return true;
}

/** The rows a payment first seen starts: the mirror's one definition of them (also lib/card-payments/terminal-record.ts). */
export function newCardPaymentRows(transaction: TPaymentTransaction, knowledge: TCardPaymentKnowledge, syncedAt: Date) {
  const fields = transactionFields(transaction);
  const isCancelled = fields.status === cardPaymentStatuses.CANCELLED;
  return {
    payment: {
      id: transaction.id,
      ...fields,
      ...knowledgeFields(knowledge, null, transaction.parcelas?.length ?? 0),
      cancelledCents: isCancelled ? fields.amountCents : 0,
      occurredAt: fields.authorizedAt ?? fields.paidAt ?? syncedAt,
      syncedAt,
      createdById: knowledge.createdById ?? null,
    },
    installments: installmentRows(transaction).map((row) => ({ ...row, paymentId: transaction.id })),
  };
}

// A created payment comes back whole, so the hot path (the terminal, the hosted page) reads nothing again.
type TWritten = { outcome: TMirrorOutcome; created?: TMirroredCardPayment };

async function writePayment(
  tx: TMirrorClient,
  transaction: TPaymentTransaction,
  knowledge: TCardPaymentKnowledge,
  syncedAt: Date,
  authority?: TMirrorAuthority,
): Promise<TWritten> {
  const fields = transactionFields(transaction);
  const parcelas = transaction.parcelas?.length ?? 0;
  const where = { id: transaction.id };
  const isCancelled = fields.status === cardPaymentStatuses.CANCELLED;
  // Only a full cancel exists (the cancel call takes no amount): a payment seen cancelled was cancelled whole.
  const isCancelledNow = (existing: CardPayment) => isCancelled && existing.cancelledCents === 0;
  const written = await upsertMirrorRow(tx, {
    lockKey: cardPaymentLockKey(transaction.id),
    syncedAt,
    find: () => tx.cardPayment.findUnique({ where }),
    create: async (): Promise<TMirroredCardPayment> => {
      const rows = newCardPaymentRows(transaction, knowledge, syncedAt);
      const created = await tx.cardPayment.create({ data: rows.payment });
      const installments =
        rows.installments.length > 0
          ? await tx.cardPaymentInstallment.createManyAndReturn({ data: rows.installments })
          : [];
      installments.sort((a, b) => a.number - b.number);
      return { ...created, installments };
    },
    move: (existing) => (acceptsStatus(existing.status, fields.status) ? "accept" : "backward"),
    authority,
    drift: (existing, move) =>
      move === "backward"
        ? { kind: "card_payment", resourceId: transaction.id, mirror: existing, gateway: { ...existing, ...fields } }
        : null,
    data: (existing) => ({
      ...fields,
      ...knowledgeFields(knowledge, existing, parcelas),
      ...(isCancelledNow(existing) ? { cancelledCents: existing.amountCents } : {}),
    }),
    // A stale snapshot still teaches what the caller knows (the BIN of a payment the reconciler saw first).
    staleData: (existing) => knowledgeFields(knowledge, existing, parcelas),
    // The cancel counts as a change even when its cents equal the row's (a payment of no amount).
    writeRelated: async (existing) =>
      (await writeInstallments(tx, transaction.id, transaction)) || isCancelledNow(existing),
    update: (data, existing) =>
      tx.cardPayment.update({
        where,
        data: { ...data, createdById: existing.createdById ?? knowledge.createdById ?? undefined },
      }),
  });
  return written.outcome === "created" ? { outcome: "created", created: written.row } : { outcome: written.outcome };
}

export async function isCardPaymentBehindMirror(
  transaction: TPaymentTransaction,
  client: TMirrorClient = db,
): Promise<boolean> {
  const row = await client.cardPayment.findUnique({ where: { id: transaction.id }, select: { status: true } });
  return row !== null && !acceptsStatus(row.status, transaction.status);
}

const withInstallments = { installments: { orderBy: { number: "asc" } } } satisfies Prisma.CardPaymentInclude;

export function findMirroredCardPayment(id: string): Promise<TMirroredCardPayment | null> {
  return db.cardPayment.findUnique({ where: { id }, include: withInstallments });
}

export async function upsertCardPaymentFromGateway(
  transaction: TPaymentTransaction,
  knowledge: TCardPaymentKnowledge,
  options: TWriteOptions = {},
): Promise<{ outcome: TMirrorOutcome; payment: TMirroredCardPayment }> {
  const now = options.now ?? new Date();
  return withTransaction(options.client, async (tx) => {
    const { outcome, created } = await writePayment(tx, transaction, knowledge, now, options.authority);
    if (outcome === "created" || outcome === "updated")
      await publishChange({ kind: "card_payment", id: transaction.id }, tx);
    const payment =
      created ??
      (await tx.cardPayment.findUniqueOrThrow({
        where: { id: transaction.id },
        include: withInstallments,
      }));
    return { outcome, payment };
  });
}

export async function recordCardPaymentCancellation(
  paymentId: string,
  cancellation: TPaymentCancellation,
  options: TWriteOptions = {},
): Promise<TMirroredCardPayment> {
  const now = options.now ?? new Date();
  return withTransaction(options.client, async (tx) => {
    await lockCardPayment(tx, paymentId);
    const existing = await tx.cardPayment.findUniqueOrThrow({ where: { id: paymentId } });
    const cancelledCents = cancelledCentsOf(cancellation);
    await tx.cardPayment.update({
      where: { id: paymentId },
      data: {
        status: cancellation.status || cardPaymentStatuses.CANCELLED,
        cancelledCents: Math.min(existing.amountCents, cancelledCents),
        cancelledAt: parseGatewayDateTime(cancellation.ecommerceGatewayDate) ?? now,
        cancellation: cancellation as unknown as Prisma.InputJsonObject,
        syncedAt: now,
      },
    });
    await publishChange({ kind: "card_payment", id: paymentId }, tx);
    return tx.cardPayment.findUniqueOrThrow({ where: { id: paymentId }, include: withInstallments });
  });
}
