import "server-only";
import { db } from "@/lib/db/client";
import { defineExportList } from "@/lib/exports/define";
import { getPixRefund, listPixRefunds } from "@/lib/gateway/pix-refunds";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import { defineOverviewSource, sqlLiteral } from "@/lib/overview/sources";
import { upsertPixRefundFromGateway } from "@/lib/pix/mirror";
import { pixRefundList } from "@/lib/pix/refunds";
import { pixRefundStatusCodes } from "@/lib/pix/types";
import { defineReconcilePass, type TReconcileRun, unlistedByCreationDate } from "@/lib/reconcile/pass";
import { healCharge, recordRefundHeal } from "./pix-charge";

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const pixRefundExport = defineExportList({
  kind: "refunds",
  permission: "payments.view",
  fileName: "pix-refunds",
  list: pixRefundList,
  findMany: (query, reader) => reader.pixRefund.findMany(query),
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

async function healRefunds(items: TPixRefund[], run: TReconcileRun): Promise<void> {
  const mirrored = await db.pixRefund.findMany({
    where: { pixRefundId: { in: items.map((item) => item.pixRefundId) } },
    select: { pixRefundId: true, statusCode: true },
  });
  const codeById = new Map(mirrored.map((row) => [row.pixRefundId, row.statusCode]));
  for (const refund of items) {
    const before = codeById.get(refund.pixRefundId);
    if (before === refund.status.code) continue;
    try {
      // The charge's status follows its refunds: read it whole first, then the refund in case that read is older.
      await healCharge(refund.pixChargeTxid, run);
      await upsertPixRefundFromGateway(refund);
      const after = await db.pixRefund.findUnique({
        where: { pixRefundId: refund.pixRefundId },
        select: { statusCode: true },
      });
      if (after) recordRefundHeal(run, refund.pixRefundId, before, after.statusCode);
    } catch (error) {
      run.errors.push(`pix_refund ${refund.pixRefundId}: ${describeError(error)}`);
    }
  }
}

export const pixRefundPass = defineReconcilePass<TPixRefund>({
  list: listPixRefunds,
  heal: healRefunds,
  unlisted: unlistedByCreationDate<TPixRefund>("pix_refund", {
    idOf: (item) => item.pixRefundId,
    table: { name: "PixRefund", id: "pixRefundId", createdAt: "creationDate" },
    read: async (pixRefundId, run) => healRefunds([await getPixRefund(pixRefundId)], run),
    mirrored: (pixRefundId) =>
      db.pixRefund.findUnique({ where: { pixRefundId }, select: { statusCode: true, amountCents: true } }),
  }),
});

const refundFigures = {
  refundsReturned: "RETURNED",
  refundsCreated: "CREATED",
  refundsProcessing: "PROCESSING",
} as const;

// By the day each refund was asked for, as the refunds list counts them.
export const pixRefundOverview = [
  defineOverviewSource({
    key: "pixRefunds",
    figures: Object.keys(refundFigures) as (keyof typeof refundFigures)[],
    returned: "refundsReturned",
    from: `"PixRefund" r`,
    time: `r."creationDate"`,
    where: `r."statusCode" IN (${Object.values(refundFigures)
      .map((status) => sqlLiteral(pixRefundStatusCodes[status]))
      .join(", ")})`,
    select: Object.entries(refundFigures)
      .map(([figure, status]) => {
        const has = `r."statusCode" = ${sqlLiteral(pixRefundStatusCodes[status])}`;
        return `count(*) FILTER (WHERE ${has}) AS "${figure}Count", sum(r."amountCents") FILTER (WHERE ${has}) AS "${figure}Cents"`;
      })
      .join(",\n       "),
  }),
];
