import "server-only";
import { createLoader } from "nuqs/server";
import type { z } from "zod";
import { auditListWhere } from "@/lib/audit/audit-log";
import { ZAuditFilters } from "@/lib/audit/schemas";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { paymentLinkListWhere } from "@/lib/links/payment-links";
import { ZPaymentLinkFilters } from "@/lib/links/schemas";
import { isLinkSettledByPix } from "@/lib/links/settlement";
import { effectiveStatusCode } from "@/lib/links/views";
import { createListParsers, toListFilters } from "@/lib/list/search-params";
import { cardPaymentListWhere } from "@/lib/payments/list";
import { ZCardPaymentFilters } from "@/lib/payments/schemas";
import { statusKindOf } from "@/lib/payments/views";
import { pixChargeListWhere } from "@/lib/pix/charges";
import { pixRefundListWhere } from "@/lib/pix/refunds";
import { ZPixChargeFilters, ZPixRefundFilters } from "@/lib/pix/schemas";
import { webhookDeliveryListWhere } from "@/lib/webhooks/history";
import { ZDeliveryFilters } from "@/lib/webhooks/schemas";
import type { TCellFormat } from "./format";

// Every CSV export, in one place: list kind → the page's filter schema and `where`, the columns and how a row
// becomes cells. Rows are read in keyset batches, newest first (the lists' default order), never all at once.

export const exportKinds = ["pixCharges", "refunds", "links", "cardPayments", "webhookDeliveries", "audit"] as const;
export type TExportKind = (typeof exportKinds)[number];

/** A column's header is `common.exportColumns.<kind>.<key>` in the reader's catalog. */
export type TExportColumn<TRecord> = { key: string; cell: (record: TRecord, format: TCellFormat) => string | number };

export type TExportFilters = Record<string, unknown>;

export type TExportList = {
  kind: TExportKind;
  /** As the list page: the audit log is for admins only. */
  adminOnly: boolean;
  fileName: string;
  columnKeys: string[];
  /** The URL's filters read by the page's own parsers (same zod schema), sort and page left out. */
  readFilters: (search: URLSearchParams) => TExportFilters;
  /** Batches of formatted rows for these filters, read after one another by a keyset on (date, id). */
  batches: (filters: TExportFilters, format: TCellFormat, batchSize: number) => AsyncGenerator<(string | number)[][]>;
};

type TKeyset = { date: Date; id: string };

// Rows strictly after the last one of the previous batch, in (date desc, id desc) order.
function afterKeyset(dateField: string, idField: string, last: TKeyset | null) {
  if (!last) return {};
  // The redundant `<=` bound lets PostgreSQL walk the date index from the last row instead of re-sorting the rest.
  return {
    [dateField]: { lte: last.date },
    OR: [{ [dateField]: { lt: last.date } }, { [dateField]: last.date, [idField]: { lt: last.id } }],
  };
}

type TListSchema = z.ZodObject<Record<string, z.ZodType>>;

function defineExportList<TFilters, TRecord>(list: {
  kind: TExportKind;
  adminOnly?: boolean;
  fileName: string;
  schema: TListSchema;
  /** The records after `last` (null: the first batch) matching the filters, `take` at most, (date, id) descending. */
  findBatch: (filters: TFilters, last: TKeyset | null, take: number, now: Date) => Promise<TRecord[]>;
  keysetOf: (record: TRecord) => TKeyset;
  columns: TExportColumn<TRecord>[];
}): TExportList {
  const load = createLoader(createListParsers(list.schema.shape));
  return {
    kind: list.kind,
    adminOnly: list.adminOnly ?? false,
    fileName: list.fileName,
    columnKeys: list.columns.map((column) => column.key),
    readFilters: (search) => {
      const { sort: _sort, order: _order, page: _page, ...filters } = toListFilters(load(search));
      return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
    },
    async *batches(filters, format, batchSize) {
      const now = new Date();
      let last: TKeyset | null = null;
      while (true) {
        const records = await list.findBatch(filters as TFilters, last, batchSize, now);
        if (records.length > 0)
          yield records.map((record) => list.columns.map((column) => column.cell(record, format)));
        if (records.length < batchSize) return;
        last = list.keysetOf(records.at(-1)!);
      }
    },
  };
}

type TFiltersOf<TSchema extends z.ZodType> = Omit<z.output<TSchema>, "sort" | "order" | "page">;

const pixChargeColumns = {
  txid: true,
  status: true,
  amountCents: true,
  creationDate: true,
  expiresAt: true,
  paidAt: true,
  paidAmountCents: true,
  refundedCents: true,
  debtorName: true,
  debtorCpf: true,
  debtorCnpj: true,
  payerName: true,
  description: true,
  userReference: true,
  endToEndId: true,
} satisfies Prisma.PixChargeSelect;
type TPixChargeRecord = Prisma.PixChargeGetPayload<{ select: typeof pixChargeColumns }>;

const pixCharges = defineExportList<TFiltersOf<typeof ZPixChargeFilters>, TPixChargeRecord>({
  kind: "pixCharges",
  fileName: "pix-charges",
  schema: ZPixChargeFilters,
  findBatch: (filters, last, take) =>
    db.pixCharge.findMany({
      where: { AND: [pixChargeListWhere(filters), afterKeyset("creationDate", "txid", last)] },
      select: pixChargeColumns,
      orderBy: [{ creationDate: "desc" }, { txid: "desc" }],
      take,
    }),
  keysetOf: (charge) => ({ date: charge.creationDate, id: charge.txid }),
  columns: [
    { key: "txid", cell: (charge) => charge.txid },
    { key: "status", cell: (charge) => charge.status },
    { key: "amount", cell: (charge, format) => format.amount(charge.amountCents) },
    { key: "createdAt", cell: (charge, format) => format.dateTime(charge.creationDate) },
    { key: "expiresAt", cell: (charge, format) => format.dateTime(charge.expiresAt) },
    { key: "paidAt", cell: (charge, format) => format.dateTime(charge.paidAt) },
    { key: "paidAmount", cell: (charge, format) => format.amount(charge.paidAmountCents) },
    { key: "refunded", cell: (charge, format) => format.amount(charge.refundedCents) },
    { key: "debtorName", cell: (charge, format) => format.text(charge.debtorName) },
    { key: "debtorDocument", cell: (charge, format) => format.document(charge.debtorCpf ?? charge.debtorCnpj) },
    { key: "payerName", cell: (charge, format) => format.text(charge.payerName) },
    { key: "description", cell: (charge, format) => format.text(charge.description) },
    { key: "userReference", cell: (charge, format) => format.text(charge.userReference) },
    { key: "endToEndId", cell: (charge) => charge.endToEndId ?? "" },
  ],
});

const pixRefundColumns = {
  pixRefundId: true,
  txid: true,
  statusDescription: true,
  amountCents: true,
  creationDate: true,
  settlementDate: true,
  statusReason: true,
  description: true,
  refundEndToEnd: true,
} satisfies Prisma.PixRefundSelect;
type TPixRefundRecord = Prisma.PixRefundGetPayload<{ select: typeof pixRefundColumns }>;

const refunds = defineExportList<TFiltersOf<typeof ZPixRefundFilters>, TPixRefundRecord>({
  kind: "refunds",
  fileName: "pix-refunds",
  schema: ZPixRefundFilters,
  findBatch: (filters, last, take) =>
    db.pixRefund.findMany({
      where: { AND: [pixRefundListWhere(filters), afterKeyset("creationDate", "pixRefundId", last)] },
      select: pixRefundColumns,
      orderBy: [{ creationDate: "desc" }, { pixRefundId: "desc" }],
      take,
    }),
  keysetOf: (refund) => ({ date: refund.creationDate, id: refund.pixRefundId }),
  columns: [
    { key: "pixRefundId", cell: (refund) => refund.pixRefundId },
    { key: "txid", cell: (refund) => refund.txid },
    { key: "status", cell: (refund) => refund.statusDescription },
    { key: "amount", cell: (refund, format) => format.amount(refund.amountCents) },
    { key: "createdAt", cell: (refund, format) => format.dateTime(refund.creationDate) },
    { key: "settledAt", cell: (refund, format) => format.dateTime(refund.settlementDate) },
    { key: "reason", cell: (refund, format) => format.text(refund.statusReason) },
    { key: "description", cell: (refund, format) => format.text(refund.description) },
    { key: "endToEndId", cell: (refund) => refund.refundEndToEnd ?? "" },
  ],
});

const paymentLinkColumns = {
  linkPaymentUuid: true,
  statusCode: true,
  statusDescription: true,
  amountCents: true,
  creationDate: true,
  expiresAt: true,
  paidAt: true,
  paidMethodDescription: true,
  payerName: true,
  payerDocument: true,
  description: true,
  userReference: true,
  paymentReceipt: true,
  pixPaidTxid: true,
  pixPaidAt: true,
} satisfies Prisma.PaymentLinkSelect;
type TPaymentLinkRecord = Prisma.PaymentLinkGetPayload<{ select: typeof paymentLinkColumns }>;

// The list's own reading of the status: a CREATED link past its expiry is expired.
const linkStatusNames: Record<number, string> = { 1: "ATIVO", 2: "EXPIRADO", 3: "PAGO", 4: "CANCELADO" };

const links = defineExportList<TFiltersOf<typeof ZPaymentLinkFilters>, TPaymentLinkRecord & { now: Date }>({
  kind: "links",
  fileName: "payment-links",
  schema: ZPaymentLinkFilters,
  findBatch: async (filters, last, take, now) =>
    (
      await db.paymentLink.findMany({
        where: { AND: [paymentLinkListWhere(filters, now), afterKeyset("creationDate", "linkPaymentUuid", last)] },
        select: paymentLinkColumns,
        orderBy: [{ creationDate: "desc" }, { linkPaymentUuid: "desc" }],
        take,
      })
    ).map((link) => ({ ...link, now })),
  keysetOf: (link) => ({ date: link.creationDate, id: link.linkPaymentUuid }),
  columns: [
    { key: "linkPaymentUuid", cell: (link) => link.linkPaymentUuid },
    {
      key: "status",
      cell: (link) => {
        const code = effectiveStatusCode(link, link.now);
        return linkStatusNames[code] ?? link.statusDescription;
      },
    },
    { key: "amount", cell: (link, format) => format.amount(link.amountCents) },
    { key: "createdAt", cell: (link, format) => format.dateTime(link.creationDate) },
    { key: "expiresAt", cell: (link, format) => format.dateTime(link.expiresAt) },
    // A link paid through its Pix charge stays CREATED upstream: the app's own record of that payment speaks for it.
    { key: "paidAt", cell: (link, format) => format.dateTime(link.pixPaidAt ?? link.paidAt) },
    { key: "method", cell: (link) => (isLinkSettledByPix(link) ? "PIX" : (link.paidMethodDescription ?? "")) },
    { key: "payerName", cell: (link, format) => format.text(link.payerName) },
    { key: "payerDocument", cell: (link, format) => format.document(link.payerDocument) },
    { key: "description", cell: (link, format) => format.text(link.description) },
    { key: "userReference", cell: (link, format) => format.text(link.userReference) },
    { key: "receipt", cell: (link, format) => format.text(link.pixPaidTxid ?? link.paymentReceipt) },
  ],
});

// Only the last four digits: card numbers are never stored, and the BIN is not needed here.
const cardPaymentColumns = {
  id: true,
  occurredAt: true,
  status: true,
  isApproved: true,
  amountCents: true,
  cancelledCents: true,
  paymentType: true,
  brandCode: true,
  cardLastFour: true,
  installmentCount: true,
  orderId: true,
  origin: true,
  authorizationCode: true,
} satisfies Prisma.CardPaymentSelect;
type TCardPaymentRecord = Prisma.CardPaymentGetPayload<{ select: typeof cardPaymentColumns }>;

const cardPayments = defineExportList<TFiltersOf<typeof ZCardPaymentFilters>, TCardPaymentRecord>({
  kind: "cardPayments",
  fileName: "card-payments",
  schema: ZCardPaymentFilters,
  findBatch: (filters, last, take) =>
    db.cardPayment.findMany({
      where: { AND: [cardPaymentListWhere(filters), afterKeyset("occurredAt", "id", last)] },
      select: cardPaymentColumns,
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      take,
    }),
  keysetOf: (payment) => ({ date: payment.occurredAt, id: payment.id }),
  columns: [
    { key: "id", cell: (payment) => payment.id },
    { key: "occurredAt", cell: (payment, format) => format.dateTime(payment.occurredAt) },
    { key: "status", cell: (payment) => statusKindOf(payment) },
    { key: "amount", cell: (payment, format) => format.amount(payment.amountCents) },
    { key: "cancelled", cell: (payment, format) => format.amount(payment.cancelledCents) },
    { key: "type", cell: (payment) => payment.paymentType ?? "" },
    { key: "brand", cell: (payment) => payment.brandCode ?? "" },
    { key: "lastFour", cell: (payment) => payment.cardLastFour ?? "" },
    { key: "installments", cell: (payment) => payment.installmentCount },
    { key: "orderId", cell: (payment, format) => format.text(payment.orderId) },
    { key: "origin", cell: (payment) => payment.origin },
    { key: "authorizationCode", cell: (payment) => payment.authorizationCode ?? "" },
  ],
});

const deliveryColumns = {
  id: true,
  receivedAt: true,
  event: true,
  outcome: true,
  resourceType: true,
  resourceId: true,
  deliveryId: true,
  signatureValid: true,
  webhookId: true,
  replayOfId: true,
} satisfies Prisma.WebhookDeliverySelect;
type TDeliveryRecord = Prisma.WebhookDeliveryGetPayload<{ select: typeof deliveryColumns }>;

const webhookDeliveries = defineExportList<Omit<z.output<typeof ZDeliveryFilters>, "page">, TDeliveryRecord>({
  kind: "webhookDeliveries",
  fileName: "webhook-deliveries",
  schema: ZDeliveryFilters,
  findBatch: (filters, last, take) =>
    db.webhookDelivery.findMany({
      where: { AND: [webhookDeliveryListWhere(filters), afterKeyset("receivedAt", "id", last)] },
      select: deliveryColumns,
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      take,
    }),
  keysetOf: (delivery) => ({ date: delivery.receivedAt, id: delivery.id }),
  columns: [
    { key: "id", cell: (delivery) => delivery.id },
    { key: "receivedAt", cell: (delivery, format) => format.dateTime(delivery.receivedAt) },
    { key: "event", cell: (delivery) => delivery.event ?? "" },
    { key: "outcome", cell: (delivery) => delivery.outcome },
    { key: "resourceType", cell: (delivery) => delivery.resourceType ?? "" },
    { key: "resourceId", cell: (delivery, format) => format.text(delivery.resourceId) },
    { key: "deliveryId", cell: (delivery, format) => format.text(delivery.deliveryId) },
    { key: "signatureValid", cell: (delivery, format) => format.yesNo(delivery.signatureValid) },
    { key: "webhookId", cell: (delivery) => delivery.webhookId ?? "" },
    { key: "replay", cell: (delivery, format) => format.yesNo(delivery.replayOfId !== null) },
  ],
});

const auditColumns = {
  id: true,
  occurredAt: true,
  actorEmail: true,
  action: true,
  resourceType: true,
  resourceId: true,
  ip: true,
  metadata: true,
} satisfies Prisma.AuditLogSelect;
type TAuditRecord = Prisma.AuditLogGetPayload<{ select: typeof auditColumns }>;

type TAuditExportFilters = Omit<z.output<typeof ZAuditFilters>, "page">;

// The actor filter costs a query of its own (auditListWhere): built once per export, whose batches all get the
// same filters object, not once per batch.
const auditWheres = new WeakMap<TAuditExportFilters, ReturnType<typeof auditListWhere>>();
function auditWhereOf(filters: TAuditExportFilters): ReturnType<typeof auditListWhere> {
  let where = auditWheres.get(filters);
  if (!where) {
    where = auditListWhere(filters);
    auditWheres.set(filters, where);
  }
  return where;
}

const audit = defineExportList<TAuditExportFilters, TAuditRecord>({
  kind: "audit",
  adminOnly: true,
  fileName: "audit-log",
  schema: ZAuditFilters,
  findBatch: async (filters, last, take) =>
    db.auditLog.findMany({
      where: { AND: [await auditWhereOf(filters), afterKeyset("occurredAt", "id", last)] },
      select: auditColumns,
      orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
      take,
    }),
  keysetOf: (entry) => ({ date: entry.occurredAt, id: entry.id }),
  columns: [
    { key: "occurredAt", cell: (entry, format) => format.dateTime(entry.occurredAt) },
    { key: "actor", cell: (entry, format) => format.text(entry.actorEmail) },
    { key: "action", cell: (entry) => entry.action },
    { key: "resourceType", cell: (entry, format) => format.text(entry.resourceType) },
    { key: "resourceId", cell: (entry, format) => format.text(entry.resourceId) },
    { key: "ip", cell: (entry) => entry.ip ?? "" },
    { key: "details", cell: (entry, format) => format.text(entry.metadata ? JSON.stringify(entry.metadata) : "") },
  ],
});

export const exportLists: Record<TExportKind, TExportList> = {
  pixCharges,
  refunds,
  links,
  cardPayments,
  webhookDeliveries,
  audit,
};
