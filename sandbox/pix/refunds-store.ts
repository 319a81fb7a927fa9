import { centsToAmount } from "../../lib/shared/money";
import { formatDateTime } from "../clock";
import { registerSchema, statement } from "../store/db";

const refundStatuses = {
  1: "CREATED",
  2: "PROCESSING",
  3: "RETURNED",
  4: "NOT FINISHED",
  99: "ERROR",
} as const;
type TRefundStatusCode = keyof typeof refundStatuses;

export type TPixRefund = {
  pixRefundId: string;
  pixChargeId: number;
  tenantId: string;
  amountCents: number;
  statusCode: TRefundStatusCode;
  statusReason: string | null;
  pixChargeTxid: string;
  refundEndToEnd: string;
  sendWebhook: boolean;
  pixEndToEnd: string;
  createdMs: number;
  updatedMs: number;
  settledMs: number | null;
  description: string | null;
  userReference: string | null;
};

registerSchema(`
  CREATE TABLE IF NOT EXISTS pix_refunds (
    client_id TEXT NOT NULL,
    id TEXT NOT NULL,
    txid TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (client_id, id)
  );
  CREATE INDEX IF NOT EXISTS pix_refunds_charge ON pix_refunds (client_id, txid, created_at);
  CREATE INDEX IF NOT EXISTS pix_refunds_created ON pix_refunds (client_id, created_at);
`);

const parse = (row: unknown) => JSON.parse((row as { doc: string }).doc) as TPixRefund;

export function insertRefund(clientId: string, refund: TPixRefund): void {
  statement("INSERT INTO pix_refunds (client_id, id, txid, created_at, doc) VALUES (?, ?, ?, ?, ?)").run(
    clientId,
    refund.pixRefundId,
    refund.pixChargeTxid,
    refund.createdMs,
    JSON.stringify(refund),
  );
}

export function updateRefund(clientId: string, refund: TPixRefund): void {
  statement("UPDATE pix_refunds SET doc = ? WHERE client_id = ? AND id = ?").run(
    JSON.stringify(refund),
    clientId,
    refund.pixRefundId,
  );
}

export function findRefund(clientId: string, pixRefundId: string): TPixRefund | undefined {
  const row = statement("SELECT doc FROM pix_refunds WHERE client_id = ? AND id = ?").get(clientId, pixRefundId);
  return row ? parse(row) : undefined;
}

export function refundsOfCharge(clientId: string, txid: string): TPixRefund[] {
  return statement("SELECT doc FROM pix_refunds WHERE client_id = ? AND txid = ? ORDER BY created_at, rowid")
    .all(clientId, txid)
    .map(parse);
}

export function listRefunds(clientId: string, range: { fromMs: number; toMs: number }): TPixRefund[] {
  return statement(
    "SELECT doc FROM pix_refunds WHERE client_id = ? AND created_at >= ? AND created_at <= ? ORDER BY created_at, rowid",
  )
    .all(clientId, range.fromMs, range.toMs)
    .map(parse);
}

/** Pix refund (2.8), plus the userReference that 4.5 says is returned on read. */
export function toApiRefund(refund: TPixRefund) {
  return {
    pixRefundId: refund.pixRefundId,
    pixChargeId: refund.pixChargeId,
    tenantId: refund.tenantId,
    partnerBankId: 1,
    amount: centsToAmount(refund.amountCents),
    status: { code: refund.statusCode, description: refundStatuses[refund.statusCode] },
    statusReason: refund.statusReason,
    pixChargeTxid: refund.pixChargeTxid,
    refundEndToEnd: refund.refundEndToEnd,
    sendWebhookInt: refund.sendWebhook ? 1 : 0,
    pixEndToEnd: refund.pixEndToEnd,
    creationDate: formatDateTime(refund.createdMs),
    updatedAt: formatDateTime(refund.updatedMs),
    refundTypeCode: 1,
    numberRetries: 0,
    settlementDate: refund.settledMs === null ? null : formatDateTime(refund.settledMs),
    description: refund.description,
    userReference: refund.userReference,
  };
}
