import "server-only";
import { db } from "@/lib/db/client";
import { publishChange } from "@/lib/events/bus";
import type { TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import type { MirrorClient, MirrorOutcome } from "@/lib/pix/mirror";
import { amountToCents } from "@/lib/shared/money";

// Local mirror of payment links (spec 2.6), written today by the link_payment.paid webhook; the
// payment links issue adds creation, lists and more fields. Like the Pix mirror: idempotent, and a
// link never moves back (CREATED 1 → EXPIRED 2 → CANCELLED 4, CREATED → PAID 3; PAID and CANCELLED
// are final), so a late or replayed snapshot cannot undo a payment.

const finalStatusCodes = [3, 4];

function acceptsLinkStatus(current: number, next: number): boolean {
  if (current === next) return true;
  if (finalStatusCodes.includes(current)) return false;
  if (current === 2) return next === 4;
  return true;
}

function linkFields(link: TPaymentLink) {
  return {
    statusCode: link.status.code,
    statusDescription: link.status.description,
    amountCents: amountToCents(link.valor),
    paidMethodCode: link.metodoPagamento?.code ?? null,
    paidMethodDescription: link.metodoPagamento?.description ?? null,
    paymentReceipt: link.comprovantePagamento,
    transactionId: link.identificadorTransacao,
  };
}

// One lock per link, held until the transaction ends (re-entrant: a caller may take it first).
export async function lockPaymentLink(tx: MirrorClient, linkPaymentUuid: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`payment_link:${linkPaymentUuid}`}, 0))`;
}

async function writeLink(tx: MirrorClient, link: TPaymentLink, syncedAt: Date): Promise<{ outcome: MirrorOutcome; link: PaymentLink }> {
  await lockPaymentLink(tx, link.linkPaymentUuid);
  const fields = linkFields(link);
  const raw = link as unknown as Prisma.InputJsonObject;
  const existing = await tx.paymentLink.findUnique({ where: { linkPaymentUuid: link.linkPaymentUuid } });
  if (!existing) {
    const created = await tx.paymentLink.create({ data: { linkPaymentUuid: link.linkPaymentUuid, ...fields, raw, syncedAt } });
    await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
    return { outcome: "created", link: created };
  }
  if (!acceptsLinkStatus(existing.statusCode, fields.statusCode)) return { outcome: "stale", link: existing };
  const isChanged = Object.entries(fields).some(([key, value]) => existing[key as keyof typeof fields] !== value);
  const updated = await tx.paymentLink.update({
    where: { linkPaymentUuid: link.linkPaymentUuid },
    // updatedAt moves only when the data does.
    data: isChanged ? { ...fields, raw, syncedAt } : { syncedAt, updatedAt: existing.updatedAt },
  });
  if (isChanged) await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
  return { outcome: isChanged ? "updated" : "unchanged", link: updated };
}

/** Writes a payment link into the mirror; pass `client` to take part in the caller's transaction. */
export function upsertPaymentLinkFromGateway(
  link: TPaymentLink,
  options: { client?: MirrorClient; now?: Date } = {},
): Promise<{ outcome: MirrorOutcome; link: PaymentLink }> {
  const syncedAt = options.now ?? new Date();
  return options.client ? writeLink(options.client, link, syncedAt) : db.$transaction((tx) => writeLink(tx, link, syncedAt));
}
