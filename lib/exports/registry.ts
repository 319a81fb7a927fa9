import "server-only";
import { createLoader } from "nuqs/server";
import { auditList } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { paymentLinkList } from "@/lib/links/payment-links";
import { isLinkSettledByPix } from "@/lib/links/settlement";
import { statusCodeByFilter } from "@/lib/links/types";
import { effectiveStatusCode } from "@/lib/links/views";
import { createListParsers, listFiltersOf, toListFilters } from "@/lib/list/search-params";
import { listBatches, type TListBatchQuery, type TListSpec } from "@/lib/list/spec";
import { cardPaymentList } from "@/lib/payments/list";
import { statusKindOf } from "@/lib/payments/views";
import { pixChargeList } from "@/lib/pix/charges";
import { pixRefundList } from "@/lib/pix/refunds";
import { webhookDeliveryList } from "@/lib/webhooks/history";
import type { TCellFormat } from "./format";

// Every CSV export, in one place: list kind → its list's spec (the page's filters, `where`, columns and default
// order, lib/list/spec.ts), the columns the export adds and how a row becomes cells. Rows are read in the lists'
// keyset batches, newest first, never all at once.

export const exportKinds = ["pixCharges", "refunds", "links", "cardPayments", "webhookDeliveries", "audit"] as const;
export type TExportKind = (typeof exportKinds)[number];

/** A column's header is `common.exportColumns.<kind>.<key>` in the reader's catalog. */
type TExportColumn<TRecord> = {
  key: string;
  /** `now` is the export's start: a row's status is read as of then, as the page reads it as of its request. */
  cell: (record: TRecord, format: TCellFormat, now: Date) => string | number;
};

type TExportFilters = Record<string, unknown>;

export type TExportList = {
  kind: TExportKind;
  /** Its URL: `/api/exports/<path>`, the kind in kebab case ("pix-charges"). */
  path: string;
  /** As the list page: the audit log is for admins only. */
  adminOnly: boolean;
  fileName: string;
  columnKeys: string[];
  /** The URL's filters read by the page's own parsers (same zod schema), sort, order, page and cursor left out. */
  readFilters: (search: URLSearchParams) => TExportFilters;
  /** Batches of formatted rows for these filters, read after one another by the list's keyset. */
  batches: (filters: TExportFilters, format: TCellFormat, batchSize: number) => AsyncGenerator<(string | number)[][]>;
};

type TSelect = Record<string, true>;

function defineExportList<
  TFilters,
  TWhere,
  TListSelect extends TSelect,
  TField extends keyof TListSelect & string,
  TTieBreaker extends keyof TListSelect & string,
  TRecord extends Record<TField | TTieBreaker, unknown>,
  TExtra extends TSelect = Record<never, never>,
>(definition: {
  kind: TExportKind;
  adminOnly?: boolean;
  fileName: string;
  list: TListSpec<TFilters, TWhere, TListSelect, TField, TTieBreaker>;
  /** The columns the export reads beyond its list's. */
  select?: TExtra;
  /** The model's `findMany`, for one batch. */
  findMany: (query: TListBatchQuery<TWhere, TListSelect & TExtra, TField, TTieBreaker>) => Promise<TRecord[]>;
  columns: TExportColumn<TRecord>[];
}): TExportList {
  const { list, columns } = definition;
  const load = createLoader(createListParsers(list.schema.shape));
  const spec = { ...list, select: { ...list.select, ...definition.select } as TListSelect & TExtra };
  return {
    kind: definition.kind,
    path: definition.kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
    adminOnly: definition.adminOnly ?? false,
    fileName: definition.fileName,
    columnKeys: columns.map((column) => column.key),
    readFilters: (search) => listFiltersOf(toListFilters(load(search))),
    async *batches(filters, format, batchSize) {
      const now = new Date();
      for await (const records of listBatches(spec, filters as TFilters, now, definition.findMany, batchSize))
        yield records.map((record) => columns.map((column) => column.cell(record, format, now)));
    },
  };
}

const pixCharges = defineExportList({
  kind: "pixCharges",
  fileName: "pix-charges",
  list: pixChargeList,
  select: { paidAt: true, paidAmountCents: true, payerName: true, endToEndId: true },
  findMany: (query) => db.pixCharge.findMany(query),
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

const refunds = defineExportList({
  kind: "refunds",
  fileName: "pix-refunds",
  list: pixRefundList,
  findMany: (query) => db.pixRefund.findMany(query),
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

// The status filter's names ("ATIVO", …), as the list's status filter and badge read the effective code.
const linkStatusNames = new Map(Object.entries(statusCodeByFilter).map(([name, code]) => [code, name]));

const links = defineExportList({
  kind: "links",
  fileName: "payment-links",
  list: paymentLinkList,
  select: { statusDescription: true, paidAt: true, paidMethodDescription: true, description: true, pixPaidAt: true },
  findMany: (query) => db.paymentLink.findMany(query),
  columns: [
    { key: "linkPaymentUuid", cell: (link) => link.linkPaymentUuid },
    {
      key: "status",
      cell: (link, _format, now) => linkStatusNames.get(effectiveStatusCode(link, now)) ?? link.statusDescription,
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

const cardPayments = defineExportList({
  kind: "cardPayments",
  fileName: "card-payments",
  list: cardPaymentList,
  // Card numbers are never stored: the list's last four digits are all the export shows of the card.
  select: { authorizationCode: true },
  findMany: (query) => db.cardPayment.findMany(query),
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

const webhookDeliveries = defineExportList({
  kind: "webhookDeliveries",
  fileName: "webhook-deliveries",
  list: webhookDeliveryList,
  findMany: (query) => db.webhookDelivery.findMany(query),
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

const audit = defineExportList({
  kind: "audit",
  adminOnly: true,
  fileName: "audit-log",
  list: auditList,
  findMany: (query) => db.auditLog.findMany(query),
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
