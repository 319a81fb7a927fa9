import "server-only";

import type { TRole } from "@/lib/auth/session-user";
import { searchCustomers } from "@/lib/customers/customers";
import { customerSegmentFor } from "@/lib/customers/viewer";
import type { TSqlRunner } from "@/lib/db/sql";
import { documentFor } from "@/lib/security/personal-data";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

import { isDocumentDigits, type TSearchTerms } from "./schemas";
import type { TSearchHit, TSearchKind } from "./types";

type TFoundRow = Omit<TSearchHit, "href">;

type TSearchKindEntry = {
  // Hidden from STAFF, in the route handler and in the result.
  isAdminOnly: boolean;
  // Found rows, newest first, at most `limit`; an empty list when the terms cannot match this kind. A payer's CPF/CNPJ
  // in a hit is as `role` may see it (lib/security/personal-data.ts).
  find: (terms: TSearchTerms, limit: number, run: TSqlRunner, role: TRole) => Promise<TFoundRow[]>;
  href: (id: string) => string;
};

const isoUtc = (column: string) => `to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const foldedPrefix = (column: string, param: string) => `search_fold(${column}) LIKE search_fold(${param}) || '%'`;

// Each kind ORs only the conditions its terms allow, every one on an indexed column (or name expression index),
// so PostgreSQL combines index scans; the statement text is one of a few shapes.
async function findWhere(
  limit: number,
  run: TSqlRunner,
  build: (add: (value: string) => string) => string[],
  select: (where: string, limitParam: string) => string,
): Promise<TFoundRow[]> {
  const values: unknown[] = [];
  const add = (value: string) => {
    values.push(value);
    return `$${values.length}::text`;
  };
  const conditions = build(add);
  if (conditions.length === 0) return [];
  values.push(limit);
  return run<TFoundRow>(select(conditions.join(" OR "), `$${values.length}::int`), values);
}

const pixCharges: TSearchKindEntry = {
  isAdminOnly: false,
  href: (txid) => `/pix/${encodeURIComponent(txid)}`,
  find: (terms, limit, run, role) =>
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
      rows.map((row) => ({ ...row, detail: row.detail ? documentFor(role, formatCpfOrCnpj(row.detail)) : row.id })),
    ),
};

const paymentLinks: TSearchKindEntry = {
  isAdminOnly: false,
  href: (uuid) => `/links/${encodeURIComponent(uuid)}`,
  find: (terms, limit, run, role) =>
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
      rows.map((row) => ({ ...row, detail: row.detail ? documentFor(role, formatCpfOrCnpj(row.detail)) : null })),
    ),
};

// Only BIN and last four are ever stored; the card number never is.
const cardPayments: TSearchKindEntry = {
  isAdminOnly: false,
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

const savedCards: TSearchKindEntry = {
  isAdminOnly: true,
  href: (token) => `/cards?token=${encodeURIComponent(token)}`,
  find: (terms, limit, run) =>
    findWhere(
      limit,
      run,
      (add) => {
        const text = add(terms.text);
        const conditions = [`t.token = ${text}`, `t."gatewayId" = ${text}`];
        if (terms.digits?.length === 4) conditions.push(`t."lastFour" = ${add(terms.digits)}`);
        return conditions;
      },
      (where, limitParam) => `
SELECT t.token AS id, '•••• ' || t."lastFour" AS title, t."brandCode" || ' · ' || t.expiry AS detail,
       NULL::int AS "amountCents", t.status, ${isoUtc(`coalesce(t."createdAtGateway", t."createdAt")`)} AS date
  FROM "CardToken" t
 WHERE ${where}
 ORDER BY coalesce(t."createdAtGateway", t."createdAt") DESC, t.token
 LIMIT ${limitParam}`,
    ),
};

const customers: TSearchKindEntry = {
  isAdminOnly: false,
  // The id is the page's path segment: the digits for admins, a sealed reference for STAFF (lib/customers/viewer.ts).
  href: (segment) => `/customers/${encodeURIComponent(segment)}`,
  find: async (terms, limit, run, role) =>
    (await searchCustomers(terms, limit, run)).map((row) => {
      const shown = documentFor(role, formatCpfOrCnpj(row.document));
      return {
        id: customerSegmentFor(role, row.document),
        title: row.name ?? shown,
        detail: shown,
        amountCents: null,
        status: null,
        date: row.lastPaidAt,
      };
    }),
};

// One entry per kind: a new kind is a new entry here and its name in lib/search/types.ts (and the messages).
export const searchKindRegistry: Record<TSearchKind, TSearchKindEntry> = {
  pixCharges,
  paymentLinks,
  cardPayments,
  savedCards,
  customers,
};
