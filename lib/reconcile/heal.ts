import "server-only";
import { z } from "zod";
import { recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { syncCardPayment } from "@/lib/card-payments/detail";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isGatewayNotFound } from "@/lib/gateway/errors";
import { getPaymentLink } from "@/lib/gateway/payment-links";
import { getPixRefund } from "@/lib/gateway/pix-refunds";
import type { MirrorDrift } from "@/lib/generated/prisma/client";
import { syncPaymentLinkFromGateway } from "@/lib/links/mirror";
import { syncPixChargeFromGateway, upsertPixRefundFromGateway } from "@/lib/pix/mirror";
import { driftKinds } from "./drift";

const driftPageSize = 25;

export const ZDriftSearchParams = z.object({
  kind: z.enum(driftKinds).optional().catch(undefined),
  state: z.enum(["open", "healed"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});
export type TDriftSearchParams = z.infer<typeof ZDriftSearchParams>;

export const ZHealDriftInput = z.object({ id: z.uuid() });

export type TDriftPage = { rows: MirrorDrift[]; page: number; hasNext: boolean };

export async function listDriftPage(filters: TDriftSearchParams): Promise<TDriftPage> {
  const page = filters.page ?? 1;
  const rows = await db.mirrorDrift.findMany({
    where: {
      ...(filters.kind ? { resourceKind: filters.kind } : {}),
      ...(filters.state ? { healedAt: filters.state === "open" ? null : { not: null } } : {}),
    },
    orderBy: [{ detectedAt: "desc" }, { id: "asc" }],
    skip: (page - 1) * driftPageSize,
    take: driftPageSize + 1,
  });
  return { rows: rows.slice(0, driftPageSize), page, hasNext: rows.length > driftPageSize };
}

const unknownAtGateway = (cause?: unknown) =>
  new AppError("CONFLICT", "health.drift.errors.unknownAtGateway", { cause });

// Held differences: an amount on a paid charge or link, or a row of any kind the gateway does not know.
async function applyGatewayCopy(drift: MirrorDrift): Promise<void> {
  const id = drift.resourceId;
  if (drift.resourceKind === "pix_charge") await syncPixChargeFromGateway(id, "reconcile", { isReviewed: true });
  else if (drift.resourceKind === "payment_link")
    await syncPaymentLinkFromGateway(id, "reconcile", () => getPaymentLink(id), true);
  else if (drift.resourceKind === "pix_refund") {
    const refund = await getPixRefund(id);
    await syncPixChargeFromGateway(refund.pixChargeTxid, "reconcile", { isReviewed: true });
    const authority = { source: "reconcile", isBackwardConfirmed: false, isReviewed: true } as const;
    await upsertPixRefundFromGateway(refund, { authority });
  } else if (drift.resourceKind === "card_payment") {
    if (!(await syncCardPayment(id, { source: "reconcile" }))) throw unknownAtGateway();
  } else throw new AppError("CONFLICT", "health.drift.errors.notHealable");
}

/** Re-reads the gateway's copy, writes it through the mirror and closes every open difference of that resource. */
export async function healMirrorDrift(id: string, context: TChangeContext, now = new Date()): Promise<number> {
  const drift = await db.mirrorDrift.findUnique({ where: { id } });
  if (!drift) throw new AppError("NOT_FOUND", "health.drift.errors.notFound");
  if (drift.healedAt) throw new AppError("CONFLICT", "health.drift.errors.alreadyHealed");
  try {
    await applyGatewayCopy(drift);
  } catch (error) {
    throw isGatewayNotFound(error) ? unknownAtGateway(error) : error;
  }
  const { count } = await db.mirrorDrift.updateMany({
    where: { resourceKind: drift.resourceKind, resourceId: drift.resourceId, healedAt: null },
    data: { healedAt: now, healedById: context.actor?.id ?? null, healedByEmail: context.actor?.email ?? null },
  });
  await recordAudit({
    actor: context.actor,
    action: "mirror.drift_healed",
    resourceType: drift.resourceKind,
    resourceId: drift.resourceId,
    ip: context.ip,
    userAgent: context.userAgent,
    metadata: { driftId: drift.id, fields: drift.fields, mirror: drift.mirrorValue, gateway: drift.gatewayValue },
  });
  return count;
}
