import "server-only";
import { randomUUID } from "node:crypto";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { toAppError } from "@/lib/gateway/errors";
import type { TWebhook, TWebhookEvent } from "@/lib/gateway/schemas/webhook";
import * as gateway from "@/lib/gateway/webhooks";
import type { Prisma, Webhook } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { getWebhookDeliveryStats } from "./history";
import { clearReceiverSecretCache } from "./receiver-secrets";
import { webhookReceiverUrl } from "./receiver-url";
import { openWebhookSecret, sealWebhookSecret } from "./secret-box";
import { signWebhookBody } from "./signature";
import { diagnoseSignature, type TSignatureDiagnosis } from "./signature-check";
import { assertWebhookUrlAllowed } from "./url-policy";

// The gateway's list says which webhooks exist; local rows add the sealed secret, receiver path and rotation schedule.

export type TWebhookAdminRow = {
  upstreamId: string;
  localId: string | null;
  url: string;
  events: string[];
  isActive: boolean;
  createdAt: Date;
  hasSecret: boolean;
  isOwnReceiver: boolean;
  // Set while it is the old half of a rotation.
  retireAt: Date | null;
  replacesUpstreamId: string | null;
  lastDeliveryAt: Date | null;
  deliveries24h: number;
  successRate24h: number | null;
};

const auditFields = (context: TChangeContext, upstreamId: string) => auditFieldsOf(context, "webhook", upstreamId);

function byUpstreamId(locals: Webhook[]): Map<string, Webhook> {
  return new Map(locals.filter((local) => local.upstreamId).map((local) => [local.upstreamId!, local]));
}

async function fetchUpstreamWebhooks(): Promise<TWebhook[]> {
  try {
    return await gateway.listWebhooks();
  } catch (error) {
    throw toAppError(error);
  }
}

async function fetchUpstreamWebhook(upstreamId: string): Promise<TWebhook> {
  const webhook = (await fetchUpstreamWebhooks()).find((item) => item.id === upstreamId);
  if (!webhook) throw new AppError("NOT_FOUND", "webhooks.errors.notFoundAtGateway");
  return webhook;
}

export async function listWebhooksForAdmin(): Promise<TWebhookAdminRow[]> {
  await retireDueWebhooks();
  const upstream = await fetchUpstreamWebhooks();
  const locals = await db.webhook.findMany({ where: { upstreamId: { in: upstream.map((webhook) => webhook.id) } } });
  const localByUpstreamId = byUpstreamId(locals);
  const upstreamIdByLocalId = new Map(locals.map((local) => [local.id, local.upstreamId]));
  const stats = await getWebhookDeliveryStats(locals.map((local) => local.id));

  return upstream
    .map((webhook): TWebhookAdminRow => {
      const local = localByUpstreamId.get(webhook.id);
      const stat = local ? stats.get(local.id) : undefined;
      return {
        upstreamId: webhook.id,
        localId: local?.id ?? null,
        url: webhook.url,
        events: webhook.events,
        isActive: webhook.active,
        createdAt: new Date(webhook.createdAt),
        hasSecret: Boolean(local?.secretCiphertext),
        isOwnReceiver: local ? webhook.url === webhookReceiverUrl(local.id) : false,
        retireAt: local?.retiredAt ? null : (local?.retireAt ?? null),
        replacesUpstreamId: local?.replacesId ? (upstreamIdByLocalId.get(local.replacesId) ?? null) : null,
        lastDeliveryAt: stat?.lastReceivedAt ?? null,
        deliveries24h: stat?.count24h ?? 0,
        successRate24h: stat?.successRate24h ?? null,
      };
    })
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

// `secret` is null for this app's own receiver: it is held sealed, since whoever holds it can sign any body.
type Registration = { upstreamId: string; localId: string; url: string; secret: string | null };

// The local record comes first, so its id can name the receiver path in the URL registered upstream.
async function registerWithLocalRecord(
  input: { url?: string; events: TWebhookEvent[]; replacesId?: string },
  onStored: (registration: Registration, tx: Prisma.TransactionClient) => Promise<void>,
): Promise<Registration> {
  const localId = randomUUID();
  const url = input.url ?? webhookReceiverUrl(localId);
  assertWebhookUrlAllowed(url);
  await db.webhook.create({
    data: { id: localId, url, events: input.events, isActive: false, replacesId: input.replacesId },
  });

  let registered: Awaited<ReturnType<typeof gateway.registerWebhook>>;
  try {
    registered = await gateway.registerWebhook({ url, events: input.events });
  } catch (error) {
    await db.webhook.delete({ where: { id: localId } });
    throw toAppError(error);
  }

  const isOwnReceiver = registered.url === webhookReceiverUrl(localId);
  const registration = {
    upstreamId: registered.id,
    localId,
    url: registered.url,
    secret: isOwnReceiver ? null : registered.secret,
  };
  try {
    await inTransaction(async (tx) => {
      await tx.webhook.update({
        where: { id: localId },
        data: {
          upstreamId: registered.id,
          url: registered.url,
          events: registered.events,
          isActive: registered.active,
          upstreamCreatedAt: new Date(registered.createdAt),
          secretCiphertext: sealWebhookSecret(registered.secret, localId),
        },
      });
      await onStored(registration, tx);
    });
  } catch (error) {
    // Registered upstream but not stored: the webhook exists without a secret the app holds.
    log.error({ err: error, upstreamId: registered.id, localId }, "webhook registered upstream but not stored");
    throw new AppError("INTERNAL", "webhooks.errors.registeredNotSaved", { cause: error });
  }
  return registration;
}

// The signing secret is in the answer and never again, and only for a receiver elsewhere (null for this app's own).
export async function registerWebhook(
  input: { url?: string; events: TWebhookEvent[] },
  context: TChangeContext,
): Promise<{ upstreamId: string; url: string; secret: string | null }> {
  const { upstreamId, url, secret } = await registerWithLocalRecord(input, (registration, tx) =>
    recordAudit(
      {
        ...auditFields(context, registration.upstreamId),
        action: "webhook.registered",
        metadata: { url: registration.url, events: input.events },
      },
      tx,
    ),
  );
  return { upstreamId, url, secret };
}

// Spec 4.6 replaces URL, events and active together; the secret stays.
export async function updateWebhook(
  upstreamId: string,
  input: { url: string; events: TWebhookEvent[]; isActive: boolean },
  context: TChangeContext,
): Promise<void> {
  // Deactivating an old http webhook stays possible.
  if (input.isActive) assertWebhookUrlAllowed(input.url);
  const before = await fetchUpstreamWebhook(upstreamId);
  let updated: TWebhook;
  try {
    updated = await gateway.updateWebhook(upstreamId, { url: input.url, events: input.events, active: input.isActive });
  } catch (error) {
    throw toAppError(error);
  }
  await inTransaction(async (tx) => {
    await tx.webhook.updateMany({
      where: { upstreamId },
      data: { url: updated.url, events: updated.events, isActive: updated.active },
    });
    await recordAudit(
      {
        ...auditFields(context, upstreamId),
        action: updated.active || !before.active ? "webhook.updated" : "webhook.deactivated",
        metadata: {
          before: { url: before.url, events: before.events, isActive: before.active },
          after: { url: updated.url, events: updated.events, isActive: updated.active },
        },
      },
      tx,
    );
  });
  // A deactivation stops the receiver at once in this process (see findReceiverWebhook).
  clearReceiverSecretCache();
}

export async function deactivateWebhook(upstreamId: string, context: TChangeContext): Promise<void> {
  const current = await fetchUpstreamWebhook(upstreamId);
  if (!current.active) throw new AppError("CONFLICT", "webhooks.errors.alreadyInactive");
  await updateWebhook(
    upstreamId,
    { url: current.url, events: current.events as TWebhookEvent[], isActive: false },
    context,
  );
}

// No rotate call in the spec: a new webhook, the old active until `retireAt`; the effect ledger applies doubled events once.
export async function startSecretRotation(
  upstreamId: string,
  input: { overlapMinutes: number },
  context: TChangeContext,
): Promise<{ upstreamId: string; url: string; secret: string | null; retireAt: Date }> {
  const current = await fetchUpstreamWebhook(upstreamId);
  if (!current.active) throw new AppError("CONFLICT", "webhooks.errors.rotateInactive");
  const existing = await db.webhook.findUnique({ where: { upstreamId } });
  if (existing?.retireAt && !existing.retiredAt) throw new AppError("CONFLICT", "webhooks.errors.alreadyRotating");
  // A webhook registered elsewhere gets a local record now, to carry its retirement date.
  const old =
    existing ??
    (await db.webhook.create({
      data: {
        upstreamId,
        url: current.url,
        events: current.events,
        isActive: true,
        upstreamCreatedAt: new Date(current.createdAt),
      },
    }));
  const isOwnReceiver = current.url === webhookReceiverUrl(old.id);
  const retireAt = new Date(Date.now() + input.overlapMinutes * 60_000);

  const registration = await registerWithLocalRecord(
    { url: isOwnReceiver ? undefined : current.url, events: current.events as TWebhookEvent[], replacesId: old.id },
    async (registered, tx) => {
      await tx.webhook.update({ where: { id: old.id }, data: { retireAt } });
      await recordAudit(
        {
          ...auditFields(context, upstreamId),
          action: "webhook.rotation_started",
          metadata: {
            newUpstreamId: registered.upstreamId,
            url: registered.url,
            retireAt: retireAt.toISOString(),
            overlapMinutes: input.overlapMinutes,
          },
        },
        tx,
      );
    },
  );
  clearReceiverSecretCache();
  return { upstreamId: registration.upstreamId, url: registration.url, secret: registration.secret, retireAt };
}

// Each row is claimed first, so two callers (a page load, a periodic job) never both act on it.
export async function retireDueWebhooks(now: Date = new Date()): Promise<number> {
  const due = await db.webhook.findMany({
    where: { retireAt: { lte: now }, retiredAt: null, upstreamId: { not: null } },
  });
  let retired = 0;
  for (const webhook of due) {
    const claim = await db.webhook.updateMany({ where: { id: webhook.id, retiredAt: null }, data: { retiredAt: now } });
    if (claim.count === 0) continue;
    clearReceiverSecretCache();
    try {
      await gateway.updateWebhook(webhook.upstreamId!, {
        url: webhook.url,
        events: webhook.events as TWebhookEvent[],
        active: false,
      });
      await inTransaction(async (tx) => {
        await tx.webhook.update({ where: { id: webhook.id }, data: { isActive: false } });
        await recordAudit(
          {
            actor: null,
            action: "webhook.retired",
            resourceType: "webhook",
            resourceId: webhook.upstreamId!,
            metadata: { retireAt: webhook.retireAt!.toISOString() },
          },
          tx,
        );
      });
      retired++;
    } catch (error) {
      // Tried again on the next call.
      await db.webhook.update({ where: { id: webhook.id }, data: { retiredAt: null } });
      log.warn({ err: error, upstreamId: webhook.upstreamId }, "could not retire a rotated webhook");
    }
  }
  return retired;
}

export async function listWebhooksWithSecret(): Promise<
  { id: string; url: string; upstreamId: string | null; isActive: boolean }[]
> {
  return db.webhook.findMany({
    where: { secretCiphertext: { not: null } },
    select: { id: true, url: true, upstreamId: true, isActive: true },
    orderBy: { createdAt: "desc" },
  });
}

export type TSignatureCheckResult = TSignatureDiagnosis & {
  // Only for a pasted secret: with a stored one it would be a signing oracle for any body.
  expectedSignature?: string;
};

export async function checkWebhookSignature(input: {
  body: string;
  signature: string;
  localWebhookId?: string;
  secret?: string;
}): Promise<TSignatureCheckResult> {
  if (input.localWebhookId) {
    const webhook = await db.webhook.findUnique({
      where: { id: input.localWebhookId },
      select: { secretCiphertext: true },
    });
    if (!webhook?.secretCiphertext) throw new AppError("NOT_FOUND", "webhooks.errors.noStoredSecret");
    const secret = openWebhookSecret(webhook.secretCiphertext, input.localWebhookId);
    return diagnoseSignature({ body: input.body, signature: input.signature, secret });
  }
  const secret = input.secret ?? "";
  const diagnosis = diagnoseSignature({ body: input.body, signature: input.signature, secret });
  return diagnosis.isValid ? diagnosis : { ...diagnosis, expectedSignature: signWebhookBody(secret, input.body) };
}

export async function getDeliveryForSignatureCheck(
  deliveryId: string,
): Promise<{ body: string; signature: string; webhookId: string | null } | null> {
  const found = await db.webhookDelivery.findUnique({
    where: { id: deliveryId },
    select: { rawBody: true, headers: true, webhookId: true, duplicateOfId: true },
  });
  // A repeated body is stored on its first delivery, with its signature.
  const delivery = found?.duplicateOfId
    ? ((await db.webhookDelivery.findUnique({
        where: { id: found.duplicateOfId },
        select: { rawBody: true, headers: true, webhookId: true, duplicateOfId: true },
      })) ?? found)
    : found;
  if (!delivery) return null;
  const headers = (delivery.headers ?? {}) as Record<string, unknown>;
  const signature = headers["x-webhook-signature"];
  return {
    body: Buffer.from(delivery.rawBody).toString("utf8"),
    signature: typeof signature === "string" ? signature : "",
    webhookId: delivery.webhookId,
  };
}
