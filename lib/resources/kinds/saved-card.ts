import "server-only";
import { isoUtc } from "@/lib/db/sql";
import { findWhere, type TSearchKindEntry } from "@/lib/search/define";

export const savedCardSearch: TSearchKindEntry = {
  permission: "savedCards.manage",
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
