import "server-only";
import { db } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import { toAppError } from "@/lib/gateway/errors";
import { getPayment } from "@/lib/gateway/payments";
import { readOrNullWhenUnknown, readThroughMirror } from "@/lib/mirror/read-through";
import { readConfirmedCopy, type TDriftSource } from "@/lib/reconcile/drift";
import {
  findMirroredCardPayment,
  isCardPaymentBehindMirror,
  type TMirroredCardPayment,
  upsertCardPaymentFromGateway,
} from "./mirror";
import { type TCardPaymentView, toCardPaymentView } from "./views";

export const cardPaymentAuditResourceType = "card_payment";

/** GET /payments/{id} into the mirror; the mirror keeps a better origin (terminal, link, POS) than GATEWAY. */
export async function syncCardPayment(
  id: string,
  options: { client?: TMirrorClient; source?: TDriftSource } = {},
): Promise<TMirroredCardPayment | null> {
  return readOrNullWhenUnknown(async () => {
    // An authoritative read: a copy that leaves a final status is read again, then corrects the mirror (drift).
    const { copy, isConfirmedBehind } = await readConfirmedCopy(
      () => getPayment(id),
      (copy) => isCardPaymentBehindMirror(copy, options.client),
    );
    const authority = { source: options.source ?? "refresh", isBackwardConfirmed: isConfirmedBehind };
    return (await upsertCardPaymentFromGateway(copy, { origin: "GATEWAY" }, { client: options.client, authority }))
      .payment;
  });
}

/** The mirror first (a card payment changes only by a cancel this app records); the gateway when unknown or on `refresh`. */
export async function getCardPaymentView(
  id: string,
  options: { refresh?: boolean } = {},
): Promise<TCardPaymentView | null> {
  const mirrored = await findMirroredCardPayment(id);
  if (mirrored && !options.refresh) return toCardPaymentView(mirrored);
  const shown = await readThroughMirror({
    read: async () => (await syncCardPayment(id)) ?? mirrored,
    mirrored,
    warning: { fields: { paymentId: id }, message: "card payment shown from the mirror: the gateway read failed" },
  });
  return shown && toCardPaymentView(shown);
}

export async function refreshCardPayment(id: string): Promise<TCardPaymentView> {
  let synced: TMirroredCardPayment | null;
  try {
    synced = await syncCardPayment(id);
  } catch (error) {
    throw toAppError(error);
  }
  if (!synced) throw new AppError("NOT_FOUND", "cardPayments.errors.notFoundAtGateway");
  return toCardPaymentView(synced);
}

export type TCardPaymentAuditEntry = {
  id: string;
  occurredAt: string;
  action: string;
  actorEmail: string | null;
  metadata: unknown;
};

// The newest first; bounded, since a payment gathers only a few entries (cancel attempts).
export async function findCardPaymentAuditTrail(id: string, take = 50): Promise<TCardPaymentAuditEntry[]> {
  const entries = await db.auditLog.findMany({
    where: { resourceType: cardPaymentAuditResourceType, resourceId: id },
    orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
    take,
    select: { id: true, occurredAt: true, action: true, actorEmail: true, metadata: true },
  });
  return entries.map((entry) => ({ ...entry, occurredAt: entry.occurredAt.toISOString() }));
}
