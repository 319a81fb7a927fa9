// The never-backwards rules of the Pix mirror, shared by the row-by-row upserts and the set-based statement.

// Spec 3.5: a refund that did not finish frees its amount again.
export const failedRefundStatusCodes = [4, 99];
const terminalRefundStatusCodes = [3, ...failedRefundStatusCodes];

const paidFamily = ["PAID", "PARTIALLY REFUNDED", "REFUNDED"];
const unpaidRank: Record<string, number> = { CREATED: 0, ACTIVE: 1 };
const finalUnpaid = ["EXPIRED", "Cancelada"];

export const knownChargeStatuses = [...Object.keys(unpaidRank), ...finalUnpaid, ...paidFamily];

// CREATED < ACTIVE < (PAID family | EXPIRED | Cancelada); a move back within PAID needs a full read (all refunds).
type TStatusMove = "accept" | "refuse" | "if_refunds_known";

export function statusMove(current: string, next: string, isFull: boolean): TStatusMove {
  if (current === next) return "accept";
  if (current in unpaidRank)
    return !(next in unpaidRank) || unpaidRank[next]! > unpaidRank[current]! ? "accept" : "refuse";
  if (finalUnpaid.includes(current)) return "refuse";
  if (!paidFamily.includes(current)) return "accept"; // an unknown status: nothing to compare with
  if (!paidFamily.includes(next)) return !(next in unpaidRank) && !finalUnpaid.includes(next) ? "accept" : "refuse";
  if (paidFamily.indexOf(next) > paidFamily.indexOf(current)) return "accept";
  return isFull ? "if_refunds_known" : "refuse";
}

// CREATED (1) < PROCESSING (2) < a final status (RETURNED, NOT FINISHED, ERROR), which never changes.
export function acceptsRefundStatus(current: number, next: number): boolean {
  if (current === next) return true;
  if (terminalRefundStatusCodes.includes(current)) return false;
  return terminalRefundStatusCodes.includes(next) || next > current;
}
