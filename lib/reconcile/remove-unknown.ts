import "server-only";
import { z } from "zod";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import { publishChange } from "@/lib/events/bus";
import { isGatewayNotFound } from "@/lib/gateway/errors";
import { getPaymentLink } from "@/lib/gateway/payment-links";
import { getPayment } from "@/lib/gateway/payments";
import { getPixCharge } from "@/lib/gateway/pix-charges";
import { getPixRefund } from "@/lib/gateway/pix-refunds";
import { removePixRefundFromMirror } from "@/lib/pix/mirror";
import { isHeldAsUnknown, type TDriftKind } from "./drift";

export const ZRemoveUnknownInput = z.object({ id: z.uuid() });

type TUnknownRowSteps = {
  read: (id: string) => Promise<unknown>;
  // Deletes the row (what hangs on it goes with it) and says whether there was one.
  remove: (tx: TMirrorClient, id: string) => Promise<boolean>;
};

const unknownRowSteps: Record<TDriftKind, TUnknownRowSteps> = {
  pix_charge: {
    read: getPixCharge,
    remove: async (tx, txid) => (await tx.pixCharge.deleteMany({ where: { txid } })).count === 1,
  },
  pix_refund: { read: getPixRefund, remove: removePixRefundFromMirror },
  payment_link: {
    read: getPaymentLink,
    remove: async (tx, linkPaymentUuid) =>
      (await tx.paymentLink.deleteMany({ where: { linkPaymentUuid } })).count === 1,
  },
  card_payment: {
    read: getPayment,
    remove: async (tx, id) => {
      await tx.posTransactionReport.updateMany({
        where: { cardPaymentId: id },
        data: { cardPaymentId: null, matchStatus: "PENDING", matchedAt: null },
      });
      return (await tx.cardPayment.deleteMany({ where: { id } })).count === 1;
    },
  },
};

async function isKnownToGateway(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    if (isGatewayNotFound(error)) return false;
    throw error;
  }
}

/** Deletes a row held as unknown once the gateway again answers 404 (the audit keeps it); returns the items closed. */
export async function removeUnknownFromMirror(id: string, context: TChangeContext, now = new Date()): Promise<number> {
  const drift = await db.mirrorDrift.findUnique({ where: { id } });
  if (!drift) throw new AppError("NOT_FOUND", "health.drift.errors.notFound");
  if (drift.healedAt) throw new AppError("CONFLICT", "health.drift.errors.alreadyHealed");
  if (!isHeldAsUnknown(drift.gatewayValue)) throw new AppError("CONFLICT", "health.drift.errors.notUnknown");
  const kind = drift.resourceKind as TDriftKind;
  const steps = unknownRowSteps[kind];
  if (await isKnownToGateway(() => steps.read(drift.resourceId)))
    throw new AppError("CONFLICT", "health.drift.errors.knownAgain");
  return inTransaction(async (tx) => {
    const isRemoved = await steps.remove(tx, drift.resourceId);
    const { count } = await tx.mirrorDrift.updateMany({
      where: { resourceKind: kind, resourceId: drift.resourceId, healedAt: null },
      data: {
        healedAt: now,
        healedById: context.actor?.id ?? null,
        healedByEmail: context.actor?.email ?? null,
        removedFromMirror: true,
      },
    });
    await recordAudit(
      {
        actor: context.actor,
        action: "mirror.unknown_removed",
        resourceType: kind,
        resourceId: drift.resourceId,
        ip: context.ip,
        userAgent: context.userAgent,
        metadata: { driftId: drift.id, isRemoved, mirror: drift.mirrorValue },
      },
      tx,
    );
    if (isRemoved) await publishChange({ kind, id: drift.resourceId }, tx);
    return count;
  });
}
