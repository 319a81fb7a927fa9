import "server-only";
import { db } from "@/lib/db/client";
import { isoUtc } from "@/lib/db/sql";
import { defineExportList } from "@/lib/exports/define";
import { listPixCharges } from "@/lib/gateway/pix-charges";
import type { TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import { recordLinkPaymentFromCharge } from "@/lib/links/pix";
import { defineOverviewSource, sqlTextArray } from "@/lib/overview/sources";
import { pixChargeList } from "@/lib/pix/charges";
import { syncPixChargeFromGateway } from "@/lib/pix/mirror";
import { pixReceivedStatuses } from "@/lib/pix/types";
import { defineReconcilePass, type TReconcileRun, unlistedByCreationDate } from "@/lib/reconcile/pass";
import { findWhere, foldedPrefix, type TSearchKindEntry } from "@/lib/search/define";
import { isDocumentDigits } from "@/lib/search/schemas";
import { documentFor } from "@/lib/security/personal-data";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const pixChargeExport = defineExportList({
  kind: "pixCharges",
  permission: "payments.view",
  fileName: "pix-charges",
  list: pixChargeList,
  select: { paidAt: true, paidAmountCents: true, payerName: true, endToEndId: true },
  findMany: (query, reader) => reader.pixCharge.findMany(query),
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

export const pixChargeSearch: TSearchKindEntry = {
  permission: "payments.view",
  href: (txid) => `/pix/${encodeURIComponent(txid)}`,
  find: (terms, limit, run, viewer) =>
    findWhere(
      limit,
      run,
      (add) => {
        const text = add(terms.text);
        const conditions = [`c.txid = ${text}`, `c."endToEndId" = ${text}`];
        if (isDocumentDigits(terms.digits)) {
          const digits = add(terms.digits);
          conditions.push(`c."debtorCpf" = ${digits}`, `c."debtorCnpj" = ${digits}`, `c."payerDocument" = ${digits}`);
        }
        if (terms.namePrefix) {
          const name = add(terms.namePrefix);
          conditions.push(foldedPrefix(`c."debtorName"`, name), foldedPrefix(`c."payerName"`, name));
        }
        return conditions;
      },
      (where, limitParam) => `
SELECT c.txid AS id, coalesce(c."payerName", c."debtorName", c.txid) AS title,
       coalesce(nullif(c."payerDocument", ''), c."debtorCpf", c."debtorCnpj") AS detail,
       coalesce(c."paidAmountCents", c."amountCents") AS "amountCents", c.status,
       ${isoUtc(`c."creationDate"`)} AS date
  FROM "PixCharge" c
 WHERE ${where}
 ORDER BY c."creationDate" DESC, c.txid
 LIMIT ${limitParam}`,
    ).then((rows) =>
      rows.map((row) => ({ ...row, detail: row.detail ? documentFor(viewer, formatCpfOrCnpj(row.detail)) : row.id })),
    ),
};

// A full read carries the payment and refunds a list item lacks; read once per run and authoritative (drift recorded).
export async function healCharge(txid: string, run: TReconcileRun): Promise<void> {
  if (run.visited.has(`pix_charge:${txid}`)) return;
  run.visited.add(`pix_charge:${txid}`);
  const before = await db.pixCharge.findUnique({
    where: { txid },
    select: { status: true, refunds: { select: { pixRefundId: true, statusCode: true } } },
  });
  const { outcome, charge, upstream } = await syncPixChargeFromGateway(txid, "reconcile");
  await recordLinkPaymentFromCharge(upstream);
  if (outcome !== "created" && outcome !== "updated") return;
  if (before?.status !== charge.status)
    run.healed.push({ kind: "pix_charge", id: txid, from: before?.status ?? null, to: charge.status });
  const codeBefore = new Map(before?.refunds.map((refund) => [refund.pixRefundId, refund.statusCode]));
  for (const refund of charge.refunds)
    recordRefundHeal(run, refund.pixRefundId, codeBefore.get(refund.pixRefundId), refund.statusCode);
}

export function recordRefundHeal(
  run: TReconcileRun,
  pixRefundId: string,
  before: number | undefined,
  after: number,
): void {
  if (before === after || run.healed.some((item) => item.kind === "pix_refund" && item.id === pixRefundId)) return;
  run.healed.push({
    kind: "pix_refund",
    id: pixRefundId,
    from: before === undefined ? null : String(before),
    to: String(after),
  });
}

async function healCharges(items: TPixChargeListItem[], run: TReconcileRun): Promise<void> {
  const mirrored = await db.pixCharge.findMany({
    where: { txid: { in: items.map((item) => item.txid) } },
    select: { txid: true, status: true, amountCents: true },
  });
  const byTxid = new Map(mirrored.map((row) => [row.txid, row]));
  for (const item of items) {
    const row = byTxid.get(item.txid);
    if (row?.status === item.status && row.amountCents === amountToCents(item.amount)) continue;
    try {
      await healCharge(item.txid, run);
    } catch (error) {
      run.errors.push(`pix_charge ${item.txid}: ${describeError(error)}`);
    }
  }
}

export const pixChargePass = defineReconcilePass<TPixChargeListItem>({
  list: listPixCharges,
  heal: healCharges,
  unlisted: unlistedByCreationDate<TPixChargeListItem>("pix_charge", {
    idOf: (item) => item.txid,
    table: { name: "PixCharge", id: "txid", createdAt: "creationDate" },
    read: healCharge,
    mirrored: (txid) => db.pixCharge.findUnique({ where: { txid }, select: { status: true, amountCents: true } }),
  }),
});

const paidAmount = `coalesce(c."paidAmountCents", c."amountCents")`;
// Per charge of the live buckets (few) an index probe, over a year of buckets one hashed pass over the links.
const paidThroughLink = `EXISTS (SELECT 1 FROM "PaymentLink" l WHERE l."pixChargeTxid" = c.txid)`;

export const pixChargeOverview = [
  defineOverviewSource({
    key: "pixPaid",
    figures: ["pix", "pixViaLink"],
    received: { figure: "pix", method: "pix" },
    from: `"PixCharge" c`,
    time: `c."paidAt"`,
    where: `c.status = ANY(${sqlTextArray(pixReceivedStatuses)})`,
    select: `count(*) AS "pixCount", sum(${paidAmount}) AS "pixCents",
       count(*) FILTER (WHERE ${paidThroughLink}) AS "pixViaLinkCount",
       sum(${paidAmount}) FILTER (WHERE ${paidThroughLink}) AS "pixViaLinkCents"`,
  }),
  // Charges still waiting, by the day they were created, as the Pix list counts them.
  defineOverviewSource({
    key: "pixPending",
    figures: ["pendingPix"],
    from: `"PixCharge" c`,
    time: `c."creationDate"`,
    where: `c.status = 'ACTIVE'`,
    select: `count(*) AS "pendingPixCount", sum(c."amountCents") AS "pendingPixCents"`,
  }),
];
