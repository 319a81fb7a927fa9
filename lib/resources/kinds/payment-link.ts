import "server-only";
import { db } from "@/lib/db/client";
import { isoUtc } from "@/lib/db/sql";
import { defineExportList } from "@/lib/exports/define";
import { listPaymentLinks } from "@/lib/gateway/payment-links";
import type { TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import { syncPaymentLinkFromGateway } from "@/lib/links/mirror";
import { paymentLinkList } from "@/lib/links/payment-links";
import { isLinkSettledByPix } from "@/lib/links/settlement";
import { paymentLinkStatusCodes, statusCodeByFilter } from "@/lib/links/types";
import { effectiveStatusCode } from "@/lib/links/views";
import { toSaoPauloDay, toUpstreamPeriod } from "@/lib/list/period";
import { defineOverviewSource, sqlLiteral } from "@/lib/overview/sources";
import { defineReconcilePass, type TReconcileRun, unlistedByCreationDate } from "@/lib/reconcile/pass";
import { findWhere, foldedPrefix, type TSearchKindEntry } from "@/lib/search/define";
import { isDocumentDigits } from "@/lib/search/schemas";
import { documentFor } from "@/lib/security/personal-data";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";
import { cardReceivedSql } from "./card-payment";

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The status filter's names ("ATIVO", …), as the list's status filter and badge read the effective code.
const linkStatusNames = new Map(Object.entries(statusCodeByFilter).map(([name, code]) => [code, name]));

export const paymentLinkExport = defineExportList({
  kind: "links",
  permission: "payments.view",
  fileName: "payment-links",
  list: paymentLinkList,
  select: { statusDescription: true, paidAt: true, paidMethodDescription: true, description: true, pixPaidAt: true },
  findMany: (query, reader) => reader.paymentLink.findMany(query),
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

export const paymentLinkSearch: TSearchKindEntry = {
  permission: "payments.view",
  href: (uuid) => `/links/${encodeURIComponent(uuid)}`,
  find: (terms, limit, run, viewer) =>
    findWhere(
      limit,
      run,
      (add) => {
        const conditions = [`l."linkPaymentUuid" = ${add(terms.text.toLowerCase())}`];
        if (isDocumentDigits(terms.digits)) conditions.push(`l."payerDocument" = ${add(terms.digits)}`);
        if (terms.namePrefix) conditions.push(foldedPrefix(`l."payerName"`, add(terms.namePrefix)));
        return conditions;
      },
      (where, limitParam) => `
SELECT l."linkPaymentUuid" AS id, l."payerName" AS title, l."payerDocument" AS detail, l."amountCents",
       l."statusDescription" AS status, ${isoUtc(`l."creationDate"`)} AS date
  FROM "PaymentLink" l
 WHERE ${where}
 ORDER BY l."creationDate" DESC, l."linkPaymentUuid"
 LIMIT ${limitParam}`,
    ).then((rows) =>
      rows.map((row) => ({ ...row, detail: row.detail ? documentFor(viewer, formatCpfOrCnpj(row.detail)) : null })),
    ),
};

const mirroredLink = (linkPaymentUuid: string) =>
  db.paymentLink.findUnique({ where: { linkPaymentUuid }, select: { statusCode: true, amountCents: true } });

async function healLink(linkPaymentUuid: string, before: { statusCode: number } | null, run: TReconcileRun) {
  const { link } = await syncPaymentLinkFromGateway(linkPaymentUuid, "reconcile");
  if (link.statusCode !== before?.statusCode)
    run.healed.push({
      kind: "payment_link",
      id: linkPaymentUuid,
      from: before ? String(before.statusCode) : null,
      to: String(link.statusCode),
    });
}

// The gateway's list carries each link whole: one that disagrees with the mirror is read alone (authoritative).
async function healLinks(items: TPaymentLink[], run: TReconcileRun): Promise<void> {
  const mirrored = await db.paymentLink.findMany({
    where: { linkPaymentUuid: { in: items.map((item) => item.linkPaymentUuid) } },
    select: { linkPaymentUuid: true, statusCode: true, amountCents: true },
  });
  const byUuid = new Map(mirrored.map((row) => [row.linkPaymentUuid, row]));
  for (const item of items) {
    const before = byUuid.get(item.linkPaymentUuid);
    if (!before) continue; // a link made elsewhere: the links page's refresh imports it
    if (before.statusCode === item.status.code && before.amountCents === amountToCents(item.valor)) continue;
    try {
      await healLink(item.linkPaymentUuid, before, run);
    } catch (error) {
      run.errors.push(`payment_link ${item.linkPaymentUuid}: ${describeError(error)}`);
    }
  }
}

// The spec's link list is one unpaged array in zone-less Brasília time: the São Paulo days covering the window.
export const paymentLinkPass = defineReconcilePass<TPaymentLink>({
  list: async ({ initialDate, endDate, page }) => {
    if (page > 0) return { content: [], last: true };
    const days = { from: toSaoPauloDay(new Date(initialDate)), to: toSaoPauloDay(new Date(endDate)) };
    const period = toUpstreamPeriod(days);
    return {
      content: await listPaymentLinks({ startDate: period.initialDate, endDate: period.endDate }),
      last: true,
    };
  },
  heal: healLinks,
  unlisted: unlistedByCreationDate<TPaymentLink>("payment_link", {
    idOf: (item) => item.linkPaymentUuid,
    table: { name: "PaymentLink", id: "linkPaymentUuid", createdAt: "creationDate" },
    read: async (linkPaymentUuid, run) => healLink(linkPaymentUuid, await mirroredLink(linkPaymentUuid), run),
    mirrored: mirroredLink,
  }),
});

// A link paid by Pix is counted through its charge, by card through its card payment; a link counts itself only when
// neither is mirrored (paid outside this app's pay page), so nothing is counted twice.
export const paymentLinkOverview = [
  defineOverviewSource({
    key: "linkPaid",
    figures: ["link"],
    received: { figure: "link", method: "link" },
    from: `"PaymentLink" l`,
    time: `l."paidAt"`,
    where: `l."statusCode" = ${sqlLiteral(paymentLinkStatusCodes.PAID)}
     AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c.txid = l."pixChargeTxid" AND c."paidAt" IS NOT NULL)
     AND NOT EXISTS (SELECT 1 FROM "CardPayment" p WHERE p."linkPaymentUuid" = l."linkPaymentUuid"
                        AND ${cardReceivedSql("p")})`,
    select: `count(*) AS "linkCount", sum(l."amountCents") AS "linkCents"`,
  }),
];
