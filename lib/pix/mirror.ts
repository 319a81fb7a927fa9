import "server-only";
import { db } from "@/lib/db/client";
import { publishChange } from "@/lib/events/bus";
import type { TPixCharge, TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import { Prisma, type PixCharge, type PixRefund } from "@/lib/generated/prisma/client";
import { amountToCents } from "@/lib/shared/money";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";

// The local mirror of upstream Pix charges and refunds. Every answer that carries a charge or a
// refund (reads, lists, creation, cancellation, and the webhooks of issue 5) goes through these two
// functions. Both are idempotent: the same upstream state written twice leaves one row with the
// same data (only `syncedAt` moves). Both refuse stale snapshots: answers can arrive out of order
// (a slow read finishing after a refund, a webhook retry carrying a body frozen at first delivery).

export type MirrorClient = Prisma.TransactionClient;
export type MirrorOutcome = "created" | "updated" | "unchanged" | "stale";

// One lock per charge, shared by mirror writes and refund requests (lib/pix/refunds.ts): held until
// the transaction ends. Works on PostgreSQL and PGlite.
export async function lockPixCharge(tx: MirrorClient, txid: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`pix_charge:${txid}`}, 0))`;
}

// Spec 3.5: a refund that did not finish frees its amount again.
export const failedRefundStatusCodes = [4, 99];
const terminalRefundStatusCodes = [3, ...failedRefundStatusCodes];

const paidFamily = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"];
const unpaidRank: Record<string, number> = { CREATED: 0, ACTIVE: 1 };
const finalUnpaid = ["EXPIRED", "Cancelada"];

function isFullCharge(charge: TPixCharge | TPixChargeListItem): charge is TPixCharge {
  return "devolutionAllowed" in charge;
}

// Whether `incoming` may replace the mirrored status `current`. CREATED < ACTIVE < (PAID family |
// EXPIRED | Cancelada); EXPIRED and Cancelada are final. Inside the paid family the status follows
// the refunds, and a failed refund can move it back (REFUNDED → PARTIALLY REFUNDED): a move back is
// taken only from a full read that already knows every refund the mirror knows, i.e. a snapshot
// that is not older than the mirror.
async function acceptsStatus(tx: MirrorClient, current: string, incoming: TPixCharge | TPixChargeListItem): Promise<boolean> {
  const next = incoming.status;
  if (current === next) return true;
  if (current in unpaidRank) return !(next in unpaidRank) || unpaidRank[next]! > unpaidRank[current]!;
  if (finalUnpaid.includes(current)) return false;
  if (!paidFamily.includes(current)) return true; // an unknown status: nothing to compare with
  if (!paidFamily.includes(next)) return !(next in unpaidRank) && !finalUnpaid.includes(next);
  if (paidFamily.indexOf(next) > paidFamily.indexOf(current)) return true;
  if (!isFullCharge(incoming)) return false;
  const known = new Set((incoming.devolutions ?? []).map((refund) => refund.pixRefundId));
  const mirrored = await tx.pixRefund.findMany({ where: { txid: incoming.txid }, select: { pixRefundId: true } });
  return mirrored.every((refund) => known.has(refund.pixRefundId));
}

// jsonb does not keep key order, so compare JSON by content.
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function isSameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a !== null && typeof a === "object") return canonicalJson(a) === canonicalJson(b);
  return a === b;
}

/** The entries of `data` that differ from `row` (dates by instant, JSON by content). */
export function changedFields<T extends Record<string, unknown>>(row: Record<string, unknown>, data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => !isSameValue(row[key], value))) as Partial<T>;
}

// What a list item carries; a list item never erases what only a full read has (QR text, payment).
function listItemFields(item: TPixChargeListItem) {
  const document = (value: string | null | undefined) => (value ? onlyDigits(value) : null);
  return {
    amountCents: amountToCents(item.amount),
    status: item.status,
    creationDate: new Date(item.calendar.creationDate),
    expirationSeconds: item.calendar.expiration,
    expiresAt: new Date(item.calendar.expirationDate),
    debtorName: item.debtor?.name ?? null,
    debtorCpf: document(item.debtor?.naturalPersonIdentification),
    debtorCnpj: document(item.debtor?.legalPersonIdentification),
    description: item.description,
    userReference: item.userReference,
  };
}

function chargeFields(charge: TPixCharge | TPixChargeListItem) {
  return isFullCharge(charge) ? fullChargeFields(charge) : listItemFields(charge);
}

function fullChargeFields(charge: TPixCharge) {
  return {
    ...listItemFields(charge),
    pixCopyAndPaste: charge.pixCopyAndPaste,
    paidAt: charge.pix ? new Date(charge.pix.creationDate) : null,
    payerName: charge.pix?.payerName ?? null,
    payerDocument: charge.pix ? onlyDigits(charge.pix.payerDocumentNumber) : null,
    endToEndId: charge.pix?.endToEndId ?? null,
    paidAmountCents: charge.pix ? amountToCents(charge.pix.amount) : null,
    devolutionAllowed: charge.devolutionAllowed,
  };
}

// The QR PNG is large and rendered again from pixCopyAndPaste, so it is not kept; the
// refunds live in their own rows.
function rawOf(charge: TPixCharge | TPixChargeListItem, previous: Prisma.JsonValue | undefined): Prisma.InputJsonObject {
  const { qrCodeBase64: _qr, devolutions: _devolutions, ...rest } = charge as Partial<TPixCharge> & TPixChargeListItem;
  const base = !isFullCharge(charge) && previous && typeof previous === "object" && !Array.isArray(previous) ? previous : {};
  return { ...base, ...rest } as Prisma.InputJsonObject;
}

// Sum of the refunds that hold money (every status but the failed ones), kept on the charge for lists.
async function recomputeRefundedCents(tx: MirrorClient, txid: string): Promise<void> {
  const { _sum } = await tx.pixRefund.aggregate({
    where: { txid, statusCode: { notIn: failedRefundStatusCodes } },
    _sum: { amountCents: true },
  });
  await tx.pixCharge.updateMany({
    where: { txid, refundedCents: { not: _sum.amountCents ?? 0 } },
    data: { refundedCents: _sum.amountCents ?? 0 },
  });
}

type UpsertChargeOptions = { client?: MirrorClient; createdById?: string | null; now?: Date };

async function writeCharge(tx: MirrorClient, charge: TPixCharge | TPixChargeListItem, options: UpsertChargeOptions): Promise<MirrorOutcome> {
  const syncedAt = options.now ?? new Date();
  await lockPixCharge(tx, charge.txid);
  const existing = await tx.pixCharge.findUnique({ where: { txid: charge.txid } });
  const fields = chargeFields(charge);
  if (!existing) {
    await tx.pixCharge.create({
      data: { txid: charge.txid, ...fields, raw: rawOf(charge, undefined), syncedAt, createdById: options.createdById ?? null },
    });
    return "created";
  }
  if (!(await acceptsStatus(tx, existing.status, charge))) return "stale";
  const changes = changedFields(existing, { ...fields, raw: rawOf(charge, existing.raw) });
  const isChanged = Object.keys(changes).length > 0;
  await tx.pixCharge.update({
    where: { txid: charge.txid },
    // updatedAt moves only when the data does.
    data: { ...changes, syncedAt, createdById: existing.createdById ?? options.createdById ?? undefined, ...(isChanged ? {} : { updatedAt: existing.updatedAt }) },
  });
  return isChanged ? "updated" : "unchanged";
}

function refundFields(refund: TPixRefund) {
  return {
    txid: refund.pixChargeTxid,
    amountCents: amountToCents(refund.amount),
    statusCode: refund.status.code,
    statusDescription: refund.status.description,
    statusReason: refund.statusReason,
    description: refund.description,
    refundEndToEnd: refund.refundEndToEnd,
    creationDate: new Date(refund.creationDate),
    settlementDate: refund.settlementDate ? new Date(refund.settlementDate) : null,
    raw: refund as unknown as Prisma.InputJsonObject,
  };
}

// CREATED (1) < PROCESSING (2) < a final status (RETURNED, NOT FINISHED, ERROR), which never changes.
function acceptsRefundStatus(current: number, next: number): boolean {
  if (current === next) return true;
  if (terminalRefundStatusCodes.includes(current)) return false;
  return terminalRefundStatusCodes.includes(next) || next > current;
}

// Inside the writing transaction, so browsers hear of it only once it is committed. A refund
// also changes its charge's page (refund list, refunded amount).
async function publishRefundChange(tx: MirrorClient, refund: TPixRefund): Promise<void> {
  await publishChange({ kind: "pix_refund", id: refund.pixRefundId }, tx);
  await publishChange({ kind: "pix_charge", id: refund.pixChargeTxid }, tx);
}

type UpsertRefundOptions = { client?: MirrorClient; requestedById?: string | null; now?: Date };

async function writeRefund(tx: MirrorClient, refund: TPixRefund, options: UpsertRefundOptions): Promise<{ outcome: MirrorOutcome; refund: PixRefund }> {
  const syncedAt = options.now ?? new Date();
  const fields = refundFields(refund);
  const existing = await tx.pixRefund.findUnique({ where: { pixRefundId: refund.pixRefundId } });
  if (!existing) {
    const created = await tx.pixRefund.create({
      data: { pixRefundId: refund.pixRefundId, ...fields, syncedAt, requestedById: options.requestedById ?? null },
    });
    await publishRefundChange(tx, refund);
    return { outcome: "created", refund: created };
  }
  if (!acceptsRefundStatus(existing.statusCode, fields.statusCode)) return { outcome: "stale", refund: existing };
  const changes = changedFields(existing, fields);
  const isChanged = Object.keys(changes).length > 0;
  const updated = await tx.pixRefund.update({
    where: { pixRefundId: refund.pixRefundId },
    data: {
      ...changes,
      syncedAt,
      requestedById: existing.requestedById ?? options.requestedById ?? undefined,
      ...(isChanged ? {} : { updatedAt: existing.updatedAt }),
    },
  });
  if (isChanged) await publishRefundChange(tx, refund);
  return { outcome: isChanged ? "updated" : "unchanged", refund: updated };
}

function inTransaction<T>(client: MirrorClient | undefined, work: (tx: MirrorClient) => Promise<T>): Promise<T> {
  return client ? work(client) : db.$transaction(work);
}

export type MirroredPixCharge = PixCharge & { refunds: PixRefund[] };

const withRefunds = { refunds: { orderBy: [{ creationDate: "asc" }, { pixRefundId: "asc" }] } } satisfies Prisma.PixChargeInclude;

export function findMirroredPixCharge(txid: string): Promise<MirroredPixCharge | null> {
  return db.pixCharge.findUnique({ where: { txid }, include: withRefunds });
}

function isUnchanged(existing: MirroredPixCharge, charge: TPixCharge | TPixChargeListItem): boolean {
  if (Object.keys(changedFields(existing, { ...chargeFields(charge), raw: rawOf(charge, existing.raw) })).length > 0) return false;
  if (!isFullCharge(charge)) return true;
  return (charge.devolutions ?? []).every((refund) => {
    const mirrored = existing.refunds.find((row) => row.pixRefundId === refund.pixRefundId);
    return mirrored && Object.keys(changedFields(mirrored, refundFields(refund))).length === 0;
  });
}

// Most writes repeat what the mirror holds (an open charge being polled): they only confirm
// `syncedAt`, in one statement and without the lock. Anything else takes the locked path.
async function confirmUnchanged(charge: TPixCharge | TPixChargeListItem, syncedAt: Date): Promise<MirroredPixCharge | null> {
  const existing = await db.pixCharge.findUnique({ where: { txid: charge.txid }, include: withRefunds });
  if (!existing || !isUnchanged(existing, charge)) return null;
  await db.pixCharge.update({ where: { txid: charge.txid }, data: { syncedAt, updatedAt: existing.updatedAt } });
  return { ...existing, syncedAt };
}

/**
 * Writes a charge (a full read, or a list item) into the mirror, with the refunds a full read
 * carries, and returns the mirrored charge with its refunds. Pass `client` to take part in the
 * caller's transaction.
 */
export async function upsertPixChargeFromGateway(
  charge: TPixCharge | TPixChargeListItem,
  options: UpsertChargeOptions = {},
): Promise<{ outcome: MirrorOutcome; charge: MirroredPixCharge }> {
  const now = options.now ?? new Date();
  if (!options.client) {
    const confirmed = await confirmUnchanged(charge, now);
    if (confirmed) return { outcome: "unchanged", charge: confirmed };
  }
  return inTransaction(options.client, async (tx) => {
    let outcome = await writeCharge(tx, charge, { ...options, now });
    if (outcome !== "stale" && isFullCharge(charge) && charge.devolutions?.length) {
      const refundOutcomes = [];
      for (const refund of charge.devolutions) refundOutcomes.push((await writeRefund(tx, refund, { now })).outcome);
      if (refundOutcomes.some((refundOutcome) => refundOutcome === "created" || refundOutcome === "updated")) {
        await recomputeRefundedCents(tx, charge.txid);
        if (outcome === "unchanged") outcome = "updated";
      }
    }
    if (outcome === "created" || outcome === "updated") await publishChange({ kind: "pix_charge", id: charge.txid }, tx);
    return { outcome, charge: await tx.pixCharge.findUniqueOrThrow({ where: { txid: charge.txid }, include: withRefunds }) };
  });
}

/**
 * Writes a refund into the mirror. Its charge must be mirrored already (write the charge first,
 * e.g. from a read): returns null otherwise, since a refund row needs its charge.
 */
export async function upsertPixRefundFromGateway(
  refund: TPixRefund,
  options: UpsertRefundOptions = {},
): Promise<{ outcome: MirrorOutcome; refund: PixRefund } | null> {
  return inTransaction(options.client, async (tx) => {
    await lockPixCharge(tx, refund.pixChargeTxid);
    const charge = await tx.pixCharge.findUnique({ where: { txid: refund.pixChargeTxid }, select: { txid: true } });
    if (!charge) return null;
    const result = await writeRefund(tx, refund, options);
    if (result.outcome !== "unchanged" && result.outcome !== "stale") await recomputeRefundedCents(tx, refund.pixChargeTxid);
    return result;
  });
}
