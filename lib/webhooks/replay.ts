import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { can } from "@/lib/auth/permissions";
import type { TCurrentUser } from "@/lib/auth/session";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { WebhookDeliveryOutcome } from "@/lib/generated/prisma/client";
import { applyStoredDelivery } from "./apply";
import { storedBodyOf } from "./stored-body";

// A new history row (`replayOfId`); exactly once still holds, so an event already applied comes back DUPLICATE.
export async function replayDelivery(
  id: string,
  actor: Pick<TCurrentUser, "id" | "email" | "permissions">,
  context: { ip?: string | null; userAgent?: string | null } = {},
): Promise<{ id: string; outcome: WebhookDeliveryOutcome }> {
  if (!can(actor, "webhooks.manage")) throw new AppError("FORBIDDEN", "webhooks.errors.replayAdminOnly");
  const original = await db.webhookDelivery.findUnique({ where: { id } });
  if (!original) throw new AppError("NOT_FOUND", "webhooks.errors.deliveryNotFound");
  if (!original.signatureValid) throw new AppError("CONFLICT", "webhooks.errors.replayUnsigned");
  const rawBody = await storedBodyOf(original);
  // The copy is a reference to the body's first delivery, as a repeat on arrival is.
  const copy = await db.webhookDelivery.create({
    data: {
      webhookId: original.webhookId,
      pathId: original.pathId,
      deliveryId: original.deliveryId,
      event: original.event,
      timestampHeader: original.timestampHeader,
      headers: {},
      rawBody: new Uint8Array(),
      bodySha256: original.bodySha256,
      duplicateOfId: original.duplicateOfId ?? original.id,
      signatureValid: true,
      outcome: "PENDING",
      replayOfId: original.id,
    },
    select: { id: true },
  });
  await recordAudit({
    actor: { id: actor.id, email: actor.email },
    action: "webhook_delivery.replayed",
    resourceType: "webhook_delivery",
    resourceId: original.id,
    ip: context.ip,
    userAgent: context.userAgent,
    metadata: { replayId: copy.id },
  });
  const outcome = await applyStoredDelivery({ id: copy.id, rawBody, applyAttempts: 0 });
  return { id: copy.id, outcome };
}
