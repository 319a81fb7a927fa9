import { randomUUID } from "node:crypto";
import { buildDynamicPixBrCode } from "../../lib/shared/br-code";
import { centsToAmount, centsToAmountString } from "../../lib/shared/money";
import { formatDateTime, now } from "../clock";
import { config } from "../config";
import { enqueueEvent } from "../events";
import { httpError, notFound } from "../http/errors";
import { defineCollection, nextSequence, transaction } from "../store/db";
import { newEndToEndId, newTxid } from "./ids";
import { qrCodePngBase64 } from "./qr-png";
import { refundsOfCharge, type TPixRefund, toApiRefund } from "./refunds-store";

export const chargeStatuses = [
  "CREATED",
  "ACTIVE",
  "PAID",
  "PARTIALLY REFUNDED",
  "REFUNDED",
  "EXPIRED",
  "Cancelada",
] as const;
export type TChargeStatus = (typeof chargeStatuses)[number];

type TDebtor = { name: string; naturalPersonIdentification?: string; legalPersonIdentification?: string };

export type TStoredCharge = {
  txid: string;
  pixChargeId: number;
  createdAtMs: number;
  expiration: number;
  amountCents: number;
  debtor: TDebtor | null;
  description: string | null;
  userReference: string | null;
  status: TChargeStatus;
  pixCopyAndPaste: string;
  /** Kept only while ACTIVE (the spec shows it only then); generated once at creation. */
  qrCodeBase64: string | null;
  pix: {
    endToEndId: string;
    amountCents: number;
    creationMs: number;
    payerName: string;
    payerDocumentNumber: string;
  } | null;
};

const refundWindowMs = 90 * 24 * 60 * 60 * 1000;

export const charges = defineCollection<TStoredCharge>("pix_charges");

export type TCreateChargeInput = {
  amountCents: number;
  expiration: number;
  debtor: TDebtor | null;
  description: string | null;
  userReference: string | null;
};

export function createCharge(clientId: string, input: TCreateChargeInput): TStoredCharge {
  const txid = newTxid();
  const { merchantName, merchantCity, pixPayloadHost } = config();
  const pixCopyAndPaste = buildDynamicPixBrCode({
    payloadUrl: `${pixPayloadHost}/pix/v2/cobv/${randomUUID()}`,
    merchantName,
    merchantCity,
    amountCents: input.amountCents,
    txid,
  });
  const qrCodeBase64 = qrCodePngBase64(pixCopyAndPaste);
  const createdAtMs = now();
  return transaction(() => {
    const charge: TStoredCharge = {
      txid,
      pixChargeId: nextSequence("pixCharge"),
      createdAtMs,
      ...input,
      status: "ACTIVE",
      pixCopyAndPaste,
      qrCodeBase64,
      pix: null,
    };
    charges.insert(clientId, txid, createdAtMs, charge);
    return charge;
  });
}

function isPastExpiry(charge: TStoredCharge, at: number): boolean {
  return charge.status === "ACTIVE" && at >= charge.createdAtMs + charge.expiration * 1000;
}

function saveStatus(clientId: string, charge: TStoredCharge, status: TChargeStatus): TStoredCharge {
  const next = { ...charge, status, qrCodeBase64: status === "ACTIVE" ? charge.qrCodeBase64 : null };
  charges.update(clientId, charge.txid, next);
  return next;
}

/** Expiry is applied when a charge is looked at: reads and lists show EXPIRED once its lifetime is over. */
function withExpiry(clientId: string, charge: TStoredCharge): TStoredCharge {
  return isPastExpiry(charge, now()) ? transaction(() => saveStatus(clientId, charge, "EXPIRED")) : charge;
}

function findCharge(clientId: string, txid: string): TStoredCharge | undefined {
  const charge = charges.get(clientId, txid);
  return charge && withExpiry(clientId, charge);
}

export function getCharge(clientId: string, txid: string): TStoredCharge {
  const charge = findCharge(clientId, txid);
  if (!charge) throw notFound("Cobrança não encontrada");
  return charge;
}

export function listCharges(clientId: string, range: { fromMs: number; toMs: number }): TStoredCharge[] {
  return charges.list(clientId, range).map((charge) => withExpiry(clientId, charge));
}

/** Moves an ACTIVE (or CREATED, for cancel) charge; 409 from any other status. */
function transition(
  clientId: string,
  txid: string,
  allowed: readonly TChargeStatus[],
  apply: (charge: TStoredCharge) => TStoredCharge,
): TStoredCharge {
  return transaction(() => {
    const charge = getCharge(clientId, txid);
    if (!allowed.includes(charge.status)) {
      throw httpError(409, `Cobrança em status ${charge.status} não permite esta operação`);
    }
    const next = apply(charge);
    charges.update(clientId, txid, next);
    return next;
  });
}

// PUT /api/v1/pix-charges/{txid}/cancel
export function cancelCharge(clientId: string, txid: string): TStoredCharge {
  return transition(clientId, txid, ["CREATED", "ACTIVE"], (charge) => ({
    ...charge,
    status: "Cancelada",
    qrCodeBase64: null,
  }));
}

// POST /sandbox/v1/pix-charges/{txid}/expire
export function expireCharge(clientId: string, txid: string): TStoredCharge {
  return transition(clientId, txid, ["ACTIVE"], (charge) => ({ ...charge, status: "EXPIRED", qrCodeBase64: null }));
}

// POST /sandbox/v1/pix-charges/{txid}/pay: the payer's bank settles the full amount.
export function payCharge(
  clientId: string,
  txid: string,
  payer: { payerName: string; payerDocumentNumber: string },
): TStoredCharge {
  return transaction(() => {
    const at = now();
    const paid = transition(clientId, txid, ["ACTIVE"], (charge) => ({
      ...charge,
      status: "PAID",
      qrCodeBase64: null,
      pix: { endToEndId: newEndToEndId("E", at), amountCents: charge.amountCents, creationMs: at, ...payer },
    }));
    enqueueEvent(clientId, "pix_charge.paid", toApiCharge(clientId, paid));
    return paid;
  });
}

export function isRefundWindowOpen(charge: TStoredCharge, at: number): boolean {
  return at - charge.createdAtMs < refundWindowMs;
}

function isDevolutionAllowed(charge: TStoredCharge): boolean {
  return (charge.status === "PAID" || charge.status === "PARTIALLY REFUNDED") && isRefundWindowOpen(charge, now());
}

function toCalendar(charge: TStoredCharge) {
  return {
    creationDate: formatDateTime(charge.createdAtMs),
    expiration: charge.expiration,
    expirationDate: formatDateTime(charge.createdAtMs + charge.expiration * 1000),
  };
}

/** Item of the charge list (2.7: list items omit the code, QR, pix and devolutions). */
export function toApiChargeListItem(charge: TStoredCharge) {
  return {
    txid: charge.txid,
    calendar: toCalendar(charge),
    debtor: charge.debtor,
    amount: centsToAmount(charge.amountCents),
    status: charge.status,
    description: charge.description,
    userReference: charge.userReference,
  };
}

/** Pix charge (2.7). */
export function toApiCharge(
  clientId: string,
  charge: TStoredCharge,
  refunds: TPixRefund[] = refundsOfCharge(clientId, charge.txid),
) {
  return {
    ...toApiChargeListItem(charge),
    pixCopyAndPaste: charge.pixCopyAndPaste,
    qrCodeBase64: charge.status === "ACTIVE" ? charge.qrCodeBase64 : null,
    pix: charge.pix && {
      endToEndId: charge.pix.endToEndId,
      amount: centsToAmountString(charge.pix.amountCents),
      creationDate: formatDateTime(charge.pix.creationMs),
      payerName: charge.pix.payerName,
      payerDocumentNumber: charge.pix.payerDocumentNumber,
    },
    devolutionAllowed: isDevolutionAllowed(charge),
    devolutions: refunds.length > 0 ? refunds.map(toApiRefund) : null,
  };
}

// POST /sandbox/v1/pix-charges/{txid}/tamper: a testing aid that changes a charge behind the app's back (no event).
export function tamperCharge(
  clientId: string,
  txid: string,
  change: { amountCents?: number; status?: TChargeStatus },
): TStoredCharge {
  return transaction(() => {
    const charge = getCharge(clientId, txid);
    const status = change.status ?? charge.status;
    const isUnpaid = status === "CREATED" || status === "ACTIVE";
    const next = {
      ...charge,
      amountCents: change.amountCents ?? charge.amountCents,
      status,
      pix: isUnpaid ? null : charge.pix,
    };
    charges.update(clientId, txid, next);
    return next;
  });
}

// DELETE /sandbox/v1/pix-charges/{txid}: a testing aid; the gateway no longer knows the charge (its reads answer 404),
// as for a mirror restored from another environment. A charge with refunds is kept: they would point at nothing.
export function forgetCharge(clientId: string, txid: string): void {
  transaction(() => {
    getCharge(clientId, txid);
    if (refundsOfCharge(clientId, txid).length > 0)
      throw httpError(409, "Cobrança com devoluções não pode ser esquecida");
    charges.delete(clientId, txid);
  });
}
