import "server-only";
import { db } from "@/lib/db/client";
import { toAppError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payments";
import type { TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import { periodBounds, type TPeriod } from "@/lib/list/period";
import type { TDriftSource } from "@/lib/reconcile/drift";
import { syncCardPayment } from "./detail";
import { upsertCardPaymentFromGateway } from "./mirror";
import type { TCardPaymentsRefreshStep } from "./types";

// The API sends no card webhooks: the gateway's payment list is the only way to learn of payments made elsewhere
// (another system, a POS that never reported). Pages are read newest first and the walk stops at the first page
// that reaches past the start of the period, so a refresh costs the period's pages, not the whole history.

const upstreamPageSize = 100; // the upstream maximum
const upstreamSort = "dataAutorizacao,desc";
/** Pages a refresh or a reconciliation reads at most (100 per page): older payments stay as the mirror has them. */
const maxCardPaymentPages = 50;

type TPulledPage = { page: number; totalPages: number; isDone: boolean; items: TPulledItem[] };
type TPulledItem = { id: string; from: string | null; to: string; isWritten: boolean };

// What an item teaches: the list knows nothing of the card beyond 2.2, so it writes as GATEWAY and the mirror keeps
// the better origin, BIN and last four of a payment this app made. A payment the mirror has in the same status is
// not written again (the list says nothing more about it), so a pass over an unchanged window costs one read a page.
// A list item that would move the mirror out of a final status is only a snapshot: the payment is then read by id, and
// that authoritative read corrects the mirror when a second read agrees (lib/reconcile/drift.ts).
async function writeItem(
  transaction: TPaymentTransaction,
  mirrored: { status: string; occurredAt: Date } | undefined,
  source: TDriftSource,
): Promise<TPulledItem & { occurredAt: Date }> {
  if (mirrored?.status === transaction.status)
    return { id: transaction.id, from: mirrored.status, to: mirrored.status, isWritten: false, ...mirrored };
  let { outcome, payment } = await upsertCardPaymentFromGateway(transaction, { origin: "GATEWAY" });
  if (outcome === "stale") {
    payment = (await syncCardPayment(transaction.id, { source })) ?? payment;
    outcome = payment.status === mirrored?.status ? "stale" : "updated";
  }
  return {
    id: payment.id,
    from: mirrored?.status ?? null,
    to: payment.status,
    isWritten: outcome === "created" || outcome === "updated",
    occurredAt: payment.occurredAt,
  };
}

async function pullPage(page: number, since: Date | undefined, source: TDriftSource): Promise<TPulledPage> {
  const result = await gateway.listPayments({ page, size: upstreamPageSize, sort: upstreamSort });
  const mirroredRows = await db.cardPayment.findMany({
    where: { id: { in: result.content.map((transaction) => transaction.id) } },
    select: { id: true, status: true, occurredAt: true },
  });
  const mirrored = new Map(mirroredRows.map(({ id, ...row }) => [id, row]));
  const items: TPulledItem[] = [];
  let oldest: Date | null = null;
  for (const transaction of result.content) {
    const { occurredAt, ...item } = await writeItem(transaction, mirrored.get(transaction.id), source);
    items.push(item);
    if (!oldest || occurredAt < oldest) oldest = occurredAt;
  }
  const isPastPeriod = since !== undefined && oldest !== null && oldest < since;
  const isDone = result.last || result.content.length === 0 || isPastPeriod || page + 1 >= maxCardPaymentPages;
  return { page: result.number, totalPages: Math.min(result.totalPages, maxCardPaymentPages), isDone, items };
}

/** One upstream page of a "refresh from gateway" over a period; the page loops until `isDone`. */
export async function refreshCardPaymentsPage(input: TPeriod & { page: number }): Promise<TCardPaymentsRefreshStep> {
  let pulled: TPulledPage;
  try {
    pulled = await pullPage(input.page, periodBounds(input).gte, "refresh");
  } catch (error) {
    throw toAppError(error);
  }
  return {
    page: pulled.page,
    totalPages: pulled.totalPages,
    upserted: pulled.items.filter((item) => item.isWritten).length,
    isDone: pulled.isDone,
  };
}

// Created, or whose status changed, when `from` differs from `to`: what the mirror did not know.
export type TCardPaymentsPassItem = { id: string; from: string | null; to: string };

/** One page of the reconciler's card pass: payments newest first, written to the mirror; done past `since`. */
export async function listCardPaymentsForReconcile(
  page: number,
  since: Date,
): Promise<{ content: TCardPaymentsPassItem[]; last: boolean }> {
  const pulled = await pullPage(page, since, "reconcile");
  return { content: pulled.items.map(({ id, from, to }) => ({ id, from, to })), last: pulled.isDone };
}
