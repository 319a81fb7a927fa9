import { randomUUID } from "node:crypto";
import { centsToAmountString } from "../../lib/shared/money";
import { now } from "../clock";
import { config } from "../config";
import { enqueueEvent } from "../events";
import { httpError, notFound } from "../http/errors";
import { transaction } from "../store/db";
import { charges, getCharge, isRefundWindowOpen, type TChargeStatus, type TStoredCharge } from "./charges";
import { newEndToEndId, tenantIdOf } from "./ids";
import { findRefund, insertRefund, refundsOfCharge, type TPixRefund, toApiRefund, updateRefund } from "./refunds-store";

export type TRefundInput = {
  txid: string;
  amountCents: number;
  description: string | null;
  userReference: string | null;
  sendWebhook: boolean;
};

// A refund that has not failed holds its amount: PROCESSING ones count against the remaining value.
function isHoldingAmount(refund: TPixRefund): boolean {
  return refund.statusCode === 1 || refund.statusCode === 2 || refund.statusCode === 3;
}

function heldCents(refunds: TPixRefund[]): number {
  return refunds.filter(isHoldingAmount).reduce((sum, refund) => sum + refund.amountCents, 0);
}

function statusAfterRefunds(charge: TStoredCharge, refunds: TPixRefund[]): TChargeStatus {
  const held = heldCents(refunds);
  if (held === 0) return "PAID";
  return held >= (charge.pix?.amountCents ?? charge.amountCents) ? "REFUNDED" : "PARTIALLY REFUNDED";
}

function syncChargeStatus(clientId: string, txid: string): void {
  const charge = getCharge(clientId, txid);
  const status = statusAfterRefunds(charge, refundsOfCharge(clientId, txid));
  if (status !== charge.status) charges.update(clientId, txid, { ...charge, status });
}

/**
 * POST /api/v1/pix-refunds. The check of the remaining value and the insert run in one IMMEDIATE
 * transaction, so concurrent refunds can never add up to more than the amount paid.
 * The answer shows PROCESSING (spec 3.5); with immediate settlement it is settled in the same
 * transaction, so a read after the answer already shows RETURNED.
 */
export function requestRefund(clientId: string, input: TRefundInput): TPixRefund {
  return transaction(() => {
    const created = createProcessingRefund(clientId, input);
    if (config().refundSettlement === "immediate") settleRefund(clientId, created.pixRefundId);
    return created;
  });
}

// Runs inside requestRefund's transaction.
function createProcessingRefund(clientId: string, input: TRefundInput): TPixRefund {
  const charge = getCharge(clientId, input.txid);
  if (charge.status === "REFUNDED") throw httpError(409, "Cobrança já totalmente devolvida");
  if ((charge.status !== "PAID" && charge.status !== "PARTIALLY REFUNDED") || !charge.pix) {
    throw httpError(409, `Cobrança em status ${charge.status} não foi paga e não aceita devolução`);
  }
  const at = now();
  if (!isRefundWindowOpen(charge, at)) throw httpError(409, "Prazo de 90 dias para devolução encerrado");
  const refunds = refundsOfCharge(clientId, charge.txid);
  const remainingCents = charge.pix.amountCents - heldCents(refunds);
  if (input.amountCents > remainingCents) {
    throw httpError(422, `Valor da devolução excede o valor disponível (${centsToAmountString(remainingCents)})`);
  }
  const refund: TPixRefund = {
    pixRefundId: randomUUID(),
    pixChargeId: charge.pixChargeId,
    tenantId: tenantIdOf(clientId),
    amountCents: input.amountCents,
    statusCode: 2,
    statusReason: null,
    pixChargeTxid: charge.txid,
    refundEndToEnd: newEndToEndId("D", at),
    sendWebhook: input.sendWebhook,
    pixEndToEnd: charge.pix.endToEndId,
    createdMs: at,
    updatedMs: at,
    settledMs: null,
    description: input.description,
    userReference: input.userReference,
  };
  insertRefund(clientId, refund);
  syncChargeStatus(clientId, charge.txid);
  return refund;
}

export function getRefund(clientId: string, pixRefundId: string): TPixRefund {
  const refund = findRefund(clientId, pixRefundId);
  if (!refund) throw notFound("Devolução não encontrada");
  return refund;
}

function finishRefund(
  clientId: string,
  pixRefundId: string,
  apply: (refund: TPixRefund, at: number) => TPixRefund,
): TPixRefund {
  return transaction(() => {
    const refund = getRefund(clientId, pixRefundId);
    if (refund.statusCode !== 2) {
      throw httpError(409, `Devolução em status ${refund.statusCode} não está em processamento`);
    }
    const next = apply(refund, now());
    updateRefund(clientId, next);
    syncChargeStatus(clientId, refund.pixChargeTxid);
    return next;
  });
}

// Settlement: PROCESSING → RETURNED, event pix_refund.returned.
export function settleRefund(clientId: string, pixRefundId: string): TPixRefund {
  return transaction(() => {
    const settled = finishRefund(clientId, pixRefundId, (refund, at) => ({
      ...refund,
      statusCode: 3,
      updatedMs: at,
      settledMs: at,
    }));
    enqueueEvent(clientId, "pix_refund.returned", toApiRefund(settled));
    return settled;
  });
}

// Failure: PROCESSING → NOT FINISHED with a reason; its amount becomes refundable again.
export function failRefund(clientId: string, pixRefundId: string, statusReason: string): TPixRefund {
  return finishRefund(clientId, pixRefundId, (refund, at) => ({
    ...refund,
    statusCode: 4,
    statusReason,
    updatedMs: at,
  }));
}
