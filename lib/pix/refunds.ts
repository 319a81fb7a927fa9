import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { formatBRL } from "@/lib/format/money";
import { periodBounds } from "@/lib/format/period";
import { GatewayHttpError, isGatewayError, toAppError } from "@/lib/gateway/errors";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import * as gateway from "@/lib/gateway/pix-refunds";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { centsToAmount } from "@/lib/shared/money";
import type { ChangeContext } from "@/lib/users/users";
import { getPixChargeView } from "./charges";
import { lockPixCharge, type MirrorClient, upsertPixChargeFromGateway, upsertPixRefundFromGateway } from "./mirror";
import type { TPixRefundFilters, TRequestPixRefund } from "./schemas";
import type { ListPage, PixRefundListRow, PixRefundPanel } from "./types";
import { refundWindowDaysLeft, remainingRefundableCents, toPixRefundListRow } from "./views";

export const pixRefundPageSize = 20;

// A refund holds its charge's lock while it calls upstream, so the others wait their turn: room for
// a queue of them, each bounded by the gateway's response timeout.
const refundTransactionOptions = { maxWait: 60_000, timeout: 120_000 };

function auditFields(context: ChangeContext, txid: string) {
  return {
    actor: context.actor,
    resourceType: "pix_charge",
    resourceId: txid,
    ip: context.ip,
    userAgent: context.userAgent,
  };
}

async function loadCharge(tx: MirrorClient, txid: string) {
  return tx.pixCharge.findUnique({ where: { txid }, include: { refunds: true } });
}

// The mirror decides before upstream is asked. It is read again from upstream only when it cannot
// allow the refund as it stands (not paid yet, or too little left), since a payment or a failed
// refund may have happened since; refunds made through the app are always in it already.
async function checkRefundable(tx: MirrorClient, txid: string, amountCents: number): Promise<void> {
  let charge = await loadCharge(tx, txid);
  const allows = (current: typeof charge) =>
    !!current && amountCents <= remainingRefundableCents(current, current.refunds);
  if (!allows(charge)) {
    try {
      await upsertPixChargeFromGateway(await getPixCharge(txid), { client: tx });
    } catch (error) {
      if (!(error instanceof GatewayHttpError && error.status === 404)) throw toAppError(error);
    }
    charge = await loadCharge(tx, txid);
  }
  if (!charge) throw new AppError("NOT_FOUND", "Pix charge not found.");
  if (!["PAID", "PARTIALLY REFUNDED", "REFUNDED"].includes(charge.status)) {
    throw new AppError("CONFLICT", `Only a paid charge can be refunded; this one is ${charge.status}.`);
  }
  if (refundWindowDaysLeft(charge, new Date()) === 0) {
    throw new AppError("CONFLICT", "The 90-day refund window of this charge has closed.");
  }
  const remaining = remainingRefundableCents(charge, charge.refunds);
  if (amountCents > remaining) {
    const fullyRefunded = remaining === 0 ? ": the charge is refunded in full" : "";
    throw new AppError(
      "UNPROCESSABLE",
      `The amount exceeds the remaining refundable ${formatBRL(remaining, "en")}${fullyRefunded}.`,
      {
        fieldErrors: { amountCents: "exceedsRemaining" },
      },
    );
  }
}

// After the refund: the charge is read again so its status (PARTIALLY REFUNDED / REFUNDED) is
// mirrored. The refund row already counts towards the remaining amount, so a failed read only
// leaves the status behind until the next one.
async function mirrorRefund(tx: MirrorClient, refund: TPixRefund, requestedById: string | null): Promise<void> {
  await upsertPixRefundFromGateway(refund, { client: tx, requestedById });
  try {
    await upsertPixChargeFromGateway(await getPixCharge(refund.pixChargeTxid), { client: tx });
  } catch (error) {
    log.warn({ err: error, txid: refund.pixChargeTxid }, "pix charge read after a refund failed");
  }
}

/**
 * Requests a refund. Refunds of one charge are serialized (a lock per charge), and the amount is
 * checked against the mirror before the gateway is called, so two people refunding at once can
 * never exceed what was paid. An upstream refusal (409, 422) changes nothing locally.
 */
export async function requestPixRefund(
  input: TRequestPixRefund,
  context: ChangeContext,
): Promise<{ pixRefundId: string }> {
  const { txid, amountCents, description } = input;
  const requestedById = context.actor?.id ?? null;
  let created: TPixRefund | undefined;
  try {
    return await db.$transaction(async (tx) => {
      await lockPixCharge(tx, txid);
      await checkRefundable(tx, txid, amountCents);
      created = await gateway.requestPixRefund({ txid, amount: centsToAmount(amountCents), description });
      await mirrorRefund(tx, created, requestedById);
      await recordAudit(
        {
          ...auditFields(context, txid),
          action: "pix_refund.requested",
          metadata: { pixRefundId: created.pixRefundId, amountCents, statusCode: created.status.code },
        },
        tx,
      );
      return { pixRefundId: created.pixRefundId };
    }, refundTransactionOptions);
  } catch (error) {
    if (created) {
      // The money moved upstream but the local commit failed: mirror it outside the transaction.
      log.error({ err: error, txid, pixRefundId: created.pixRefundId }, "pix refund done upstream, local write failed");
      await upsertPixChargeFromGateway(await getPixCharge(txid)).catch(() => undefined);
      return { pixRefundId: created.pixRefundId };
    }
    if (isGatewayError(error)) {
      await recordAudit({
        ...auditFields(context, txid),
        action: "pix_refund.failed",
        metadata: { amountCents, reason: error.message.slice(0, 300) },
      });
    }
    throw toAppError(error);
  }
}

/** The refunds panel of a charge page, from the mirror. */
export async function getRefundPanel(txid: string): Promise<PixRefundPanel | null> {
  const view = await getPixChargeView(txid);
  if (!view) return null;
  const { status, payment, refunds, refundedCents, remainingRefundableCents, refundWindowDaysLeft, canRefund } = view;
  return { txid, status, payment, refunds, refundedCents, remainingRefundableCents, refundWindowDaysLeft, canRefund };
}

const sortFields: Record<TPixRefundFilters["sort"], "creationDate" | "amountCents" | "statusCode" | "settlementDate"> =
  {
    creationDate: "creationDate",
    amount: "amountCents",
    statusCode: "statusCode",
    settlementDate: "settlementDate",
  };

/** The refund list, from the mirror; every filter optional, as upstream's. */
export async function findPixRefunds(
  filters: TPixRefundFilters,
  pageSize = pixRefundPageSize,
): Promise<ListPage<PixRefundListRow>> {
  const where: Prisma.PixRefundWhereInput = {
    creationDate: periodBounds(filters),
    txid: filters.txid ? { contains: filters.txid, mode: "insensitive" } : undefined,
    statusCode: filters.statusCode,
  };
  const [total, refunds] = await Promise.all([
    db.pixRefund.count({ where }),
    db.pixRefund.findMany({
      where,
      orderBy: [{ [sortFields[filters.sort]]: filters.order }, { pixRefundId: filters.order }],
      skip: (filters.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return {
    rows: refunds.map(toPixRefundListRow),
    total,
    page: filters.page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  };
}
