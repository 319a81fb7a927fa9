import "server-only";

import { readSql } from "@/lib/db/read-replica";
import { isoUtc, runSql, type TSqlRunner } from "@/lib/db/sql";
import { paymentLinkStatusCodes } from "@/lib/links/types";
import type { TListPage } from "@/lib/list/query";
import { pixReceivedStatuses } from "@/lib/pix/types";
import { toSearchTerms } from "@/lib/search/schemas";

import type { TCustomerFilters, TCustomerSortColumn } from "./schemas";
import type { TCustomerDetail, TCustomerPayment, TCustomerRow } from "./types";

const customerPageSize = 25;
export const customerPaymentsLimit = 200;

// Paid links count unless their own Pix charge was paid (that payment is the charge, counted once). Each branch takes
// its own filter, so a document lookup reaches the document indexes.
const paidPayments = (pixWhere: string, linkWhere: string, { withLink = false } = {}) => `
  SELECT 'pix' AS kind, c.txid AS id,
         coalesce(nullif(c."payerDocument", ''), c."debtorCpf", c."debtorCnpj") AS document,
         coalesce(c."payerName", c."debtorName") AS name,
         coalesce(c."paidAmountCents", c."amountCents") AS cents,
         c.status, coalesce(c."paidAt", c."syncedAt") AS "paidAt",
         ${withLink ? `(SELECT l."linkPaymentUuid" FROM "PaymentLink" l WHERE l."pixChargeTxid" = c.txid)` : "NULL"} AS "linkPaymentUuid"
    FROM "PixCharge" c
   WHERE c.status = ANY($1::text[]) AND ${pixWhere}
  UNION ALL
  SELECT 'link', l."linkPaymentUuid", l."payerDocument", l."payerName", l."amountCents",
         l."statusDescription", coalesce(l."paidAt", l."syncedAt"), l."linkPaymentUuid"
    FROM "PaymentLink" l
   WHERE l."statusCode" = $2::int AND NOT l."isForeignPayer" AND l."payerDocument" <> '' AND ${linkWhere}
     AND NOT EXISTS (SELECT 1 FROM "PixCharge" c WHERE c.txid = l."pixChargeTxid" AND c.status = ANY($1::text[]))`;

const aggregate = `
  SELECT document, (array_agg(name ORDER BY "paidAt" DESC) FILTER (WHERE name IS NOT NULL))[1] AS name,
         count(*)::int AS "paymentCount", sum(cents) AS total, max("paidAt") AS "lastPaidAt"
    FROM payments WHERE document IS NOT NULL
   GROUP BY document`;

const sortExpressions: Record<TCustomerSortColumn, string> = {
  total: "total",
  count: `"paymentCount"`,
  lastPaid: `"lastPaidAt"`,
};

// A search picks the customers; their totals still cover every payment.
function searchFilter(query: string | undefined, param: number): { sql: string; value: string | null } {
  if (!query) return { sql: "", value: null };
  const { digits, namePrefix } = toSearchTerms(query);
  if (digits) {
    return {
      sql: `AND document IN (SELECT document FROM payments WHERE document LIKE $${param}::text || '%')`,
      value: digits,
    };
  }
  if (namePrefix) {
    return {
      sql: `AND document IN (SELECT document FROM payments WHERE search_fold(name) LIKE search_fold($${param}::text) || '%')`,
      value: namePrefix,
    };
  }
  return { sql: "AND false", value: null };
}

type TCustomerSqlRow = Omit<TCustomerRow, "totalPaidCents"> & { totalPaidCents: string; rowCount: number };

const baseValues = () => [[...pixReceivedStatuses], paymentLinkStatusCodes.PAID];

function toCustomerRow({ rowCount: _rowCount, totalPaidCents, ...row }: TCustomerSqlRow): TCustomerRow {
  return { ...row, totalPaidCents: Number(totalPaidCents) };
}

export async function findCustomers(
  filters: TCustomerFilters,
  { pageSize = customerPageSize, run: given }: { pageSize?: number; run?: TSqlRunner } = {},
): Promise<TListPage<TCustomerRow>> {
  const run = given ?? (await readSql());
  const search = searchFilter(filters.q, 5);
  const direction = filters.order === "asc" ? "ASC" : "DESC";
  const text = `
WITH payments AS (${paidPayments("true", "true")}),
customers AS (${aggregate})
SELECT document, name, "paymentCount", total::text AS "totalPaidCents", ${isoUtc(`"lastPaidAt"`)} AS "lastPaidAt",
       count(*) OVER ()::int AS "rowCount"
  FROM customers
 WHERE true ${search.sql}
 ORDER BY ${sortExpressions[filters.sort]} ${direction}, document ${direction}
 LIMIT $3::int OFFSET $4::int`;
  const values = [...baseValues(), pageSize, (filters.page - 1) * pageSize];
  const rows = await run<TCustomerSqlRow>(text, search.value === null ? values : [...values, search.value]);
  // Past the last page the window count is gone with the rows: count on their own.
  const total = rows[0]?.rowCount ?? (filters.page > 1 ? await countCustomers(filters.q, run) : 0);
  return {
    rows: rows.map(toCustomerRow),
    total,
    page: filters.page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  };
}

async function countCustomers(query: string | undefined, run: TSqlRunner): Promise<number> {
  const search = searchFilter(query, 3);
  const text = `
WITH payments AS (${paidPayments("true", "true")}),
customers AS (${aggregate})
SELECT count(*)::int AS count FROM customers WHERE true ${search.sql}`;
  const values = baseValues();
  const [row] = await run<{ count: number }>(text, search.value === null ? values : [...values, search.value]);
  return row?.count ?? 0;
}

// The document filters repeat the OR of the three columns so each can use its index; the coalesce decides.
const pixByDocument = `(c."payerDocument" = $3::text OR c."debtorCpf" = $3::text OR c."debtorCnpj" = $3::text)
     AND coalesce(nullif(c."payerDocument", ''), c."debtorCpf", c."debtorCnpj") = $3::text`;
const linkByDocument = `l."payerDocument" = $3::text`;

const customerSummarySql = `
WITH payments AS (${paidPayments(pixByDocument, linkByDocument)}),
customers AS (${aggregate})
SELECT document, name, "paymentCount", total::text AS "totalPaidCents", ${isoUtc(`"lastPaidAt"`)} AS "lastPaidAt",
       1 AS "rowCount"
  FROM customers`;

const customerPaymentsSql = `
SELECT kind, id, cents AS "amountCents", status, name, ${isoUtc(`"paidAt"`)} AS "paidAt", "linkPaymentUuid"
  FROM (${paidPayments(pixByDocument, linkByDocument, { withLink: true })}) payments
 ORDER BY payments."paidAt" DESC, id DESC
 LIMIT $4::int`;

export async function getCustomer(document: string, run: TSqlRunner = runSql): Promise<TCustomerDetail | null> {
  const values = [...baseValues(), document];
  const [summary, payments] = await Promise.all([
    run<TCustomerSqlRow>(customerSummarySql, values),
    run<TCustomerPayment>(customerPaymentsSql, [...values, customerPaymentsLimit + 1]),
  ]);
  const [row] = summary;
  if (!row) return null;
  return {
    customer: toCustomerRow(row),
    payments: payments.slice(0, customerPaymentsLimit),
    isTruncated: payments.length > customerPaymentsLimit,
  };
}

const namePrefix = (column: string) => `search_fold(${column}) LIKE search_fold($3::text) || '%'`;

const customerSearchSql = (pixWhere: string, linkWhere: string) => `
WITH payments AS (${paidPayments(pixWhere, linkWhere)}),
customers AS (${aggregate})
SELECT document, name, "paymentCount", total::text AS "totalPaidCents", ${isoUtc(`"lastPaidAt"`)} AS "lastPaidAt",
       0 AS "rowCount"
  FROM customers
 ORDER BY customers."lastPaidAt" DESC, document
 LIMIT $4::int`;

const customerByDocumentSql = customerSearchSql(pixByDocument, linkByDocument);
const customerByNameSql = customerSearchSql(
  `(${namePrefix(`c."debtorName"`)} OR ${namePrefix(`c."payerName"`)})`,
  namePrefix(`l."payerName"`),
);

// A name search counts only the payments under that name: the customer page has the full totals.
export async function searchCustomers(
  terms: { digits: string | null; namePrefix: string | null },
  limit: number,
  run: TSqlRunner = runSql,
): Promise<TCustomerRow[]> {
  const isDocument = terms.digits !== null && (terms.digits.length === 11 || terms.digits.length === 14);
  const value = isDocument ? terms.digits : terms.namePrefix;
  if (!value) return [];
  const rows = await run<TCustomerSqlRow>(isDocument ? customerByDocumentSql : customerByNameSql, [
    ...baseValues(),
    value,
    limit,
  ]);
  return rows.map(toCustomerRow);
}
