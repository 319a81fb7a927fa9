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

// No card webhooks: the list finds payments made elsewhere; the newest-first walk stops past the period's start.

const upstreamPageSize = 100; // the upstream maximum
const upstreamSort = "dataAutorizacao,desc";
/** Pages a refresh or a reconciliation reads at most (100 per page): older payments stay as the mirror has them. */
const maxCardPaymentPages = 50;

type TPulledPage = { page: number; totalPages: number; isDone: boolean; items: TPulledItem[]; coveredFrom?: Date };
type TPulledItem = { id: string; from: string | null; to: string; isWritten: boolean };

// A list item writes as GATEWAY (a better origin, BIN and last four are kept); one leaving a final status is re-read by id.
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
  const isComplete = result.last || result.content.length === 0 || isPastPeriod;
  const isCapped = !isComplete && page + 1 >= maxCardPaymentPages;
  return {
    page: result.number,
    totalPages: Math.min(result.totalPages, maxCardPaymentPages),
    isDone: isComplete || isCapped,
    items,
    ...(isCapped && oldest ? { coveredFrom: oldest } : {}),
  };
}

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

export async function listCardPaymentsForReconcile(
  page: number,
  since: Date,
): Promise<{ content: TCardPaymentsPassItem[]; last: boolean; coveredFrom?: Date }> {
  const pulled = await pullPage(page, since, "reconcile");
  return {
    content: pulled.items.map(({ id, from, to }) => ({ id, from, to })),
    last: pulled.isDone,
    ...(pulled.coveredFrom ? { coveredFrom: pulled.coveredFrom } : {}),
  };
}
