import "server-only";
import { syncCardPayment } from "@/lib/card-payments/detail";
import { cardPaymentList } from "@/lib/card-payments/list";
import { listCardPaymentsForReconcile, type TCardPaymentsPassItem } from "@/lib/card-payments/sync";
import { cardPaymentStatuses } from "@/lib/card-payments/types";
import { statusKindOf } from "@/lib/card-payments/views";
import { db } from "@/lib/db/client";
import { isoUtc } from "@/lib/db/sql";
import { defineExportList } from "@/lib/exports/define";
import { defineOverviewSource, sqlLiteral } from "@/lib/overview/sources";
import { readOrHoldUnknown } from "@/lib/reconcile/drift";
import { defineReconcilePass } from "@/lib/reconcile/pass";
import { findWhere, type TSearchKindEntry } from "@/lib/search/define";

export const cardPaymentExport = defineExportList({
  kind: "cardPayments",
  permission: "payments.view",
  fileName: "card-payments",
  list: cardPaymentList,
  // Card numbers are never stored: the list's last four digits are all the export shows of the card.
  select: { authorizationCode: true },
  findMany: (query, reader) => reader.cardPayment.findMany(query),
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

export const cardPaymentSearch: TSearchKindEntry = {
  permission: "payments.view",
  href: (id) => `/payments/${encodeURIComponent(id)}`,
  find: (terms, limit, run) =>
    findWhere(
      limit,
      run,
      (add) => {
        const text = add(terms.text);
        const conditions = [`p.id = ${text}`, `p."orderId" = ${text}`];
        if (terms.digits?.length === 4) conditions.push(`p."cardLastFour" = ${add(terms.digits)}`);
        return conditions;
      },
      (where, limitParam) => `
SELECT p.id, coalesce(p."orderId", p.id) AS title,
       CASE WHEN p."cardLastFour" IS NULL THEN NULL ELSE '•••• ' || p."cardLastFour" END AS detail,
       p."amountCents", p.status, ${isoUtc(`p."occurredAt"`)} AS date
  FROM "CardPayment" p
 WHERE ${where}
 ORDER BY p."occurredAt" DESC, p.id
 LIMIT ${limitParam}`,
    ),
};

// No webhook announces a card payment: this pass is how the mirror learns of one made elsewhere.
export const cardPaymentPass = defineReconcilePass<TCardPaymentsPassItem>({
  list: ({ initialDate, page }) => listCardPaymentsForReconcile(page, new Date(initialDate)),
  async heal(items, run) {
    for (const item of items)
      if (item.from !== item.to) run.healed.push({ kind: "card_payment", id: item.id, from: item.from, to: item.to });
  },
  // The walk is newest first by authorization time, which the mirror keeps as occurredAt.
  unlisted: {
    idOf: (item) => item.id,
    table: { name: "CardPayment", id: "id", createdAt: "occurredAt" },
    check: (id) =>
      readOrHoldUnknown("card_payment", id, {
        read: () => syncCardPayment(id, { source: "reconcile" }),
        mirrored: () => db.cardPayment.findUnique({ where: { id }, select: { status: true, amountCents: true } }),
      }),
  },
});

// Money received by card: approved, or approved and then cancelled (the cancellation is given back, not unreceived).
export const cardReceivedSql = (alias: string) =>
  `((${alias}.status = ${sqlLiteral(cardPaymentStatuses.APPROVED)} AND ${alias}."isApproved") OR ${alias}.status = ${sqlLiteral(cardPaymentStatuses.CANCELLED)})`;

export const cardPaymentOverview = [
  defineOverviewSource({
    key: "cardReceived",
    figures: ["card", "cardCancelled", "cardViaLink"],
    received: { figure: "card", method: "card" },
    returned: "cardCancelled",
    from: `"CardPayment" p`,
    time: `p."occurredAt"`,
    where: cardReceivedSql("p"),
    select: `count(*) AS "cardCount", sum(p."amountCents") AS "cardCents",
       count(*) FILTER (WHERE p.status = ${sqlLiteral(cardPaymentStatuses.CANCELLED)}) AS "cardCancelledCount",
       sum(p."cancelledCents") AS "cardCancelledCents",
       count(*) FILTER (WHERE p."linkPaymentUuid" IS NOT NULL) AS "cardViaLinkCount",
       sum(p."amountCents") FILTER (WHERE p."linkPaymentUuid" IS NOT NULL) AS "cardViaLinkCents"`,
  }),
];
