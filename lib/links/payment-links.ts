import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { defaultPeriod, periodBounds, type TPeriod, toUpstreamPeriod } from "@/lib/format/period";
import { GatewayHttpError, isCertainlyNotApplied, toAppError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payment-links";
import type { TCreatePaymentLinkRequest, TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import { type PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import type { ListPage } from "@/lib/pix/types";
import { centsToAmount } from "@/lib/shared/money";
import type { ChangeContext } from "@/lib/users/users";
import { upsertPaymentLinkFromGateway } from "./mirror";
import type { TCreatePaymentLink, TPaymentLinkFilters } from "./schemas";
import {
  type PaymentLinkListRow,
  type PaymentLinkView,
  paymentLinkStatusCodes,
  type RefreshLinksResult,
  statusCodeByFilter,
} from "./types";
import { toPaymentLinkListRow, toPaymentLinkView } from "./views";

export const paymentLinkPageSize = 20;
// The list's period when none is given (it is never open-ended: upstream requires one).
export const paymentLinkPeriodDays = 30;
// A CREATED link older than this in the mirror is read again before it is shown (polling rate).
const openLinkMaxAgeMs = 1000;
// How long a second submit of the same form waits for the first one to finish.
const pendingRequestWaitMs = 20_000;

export function defaultLinkPeriod(now: Date = new Date()): TPeriod {
  return defaultPeriod(now, paymentLinkPeriodDays);
}

function auditFields(context: ChangeContext, linkPaymentUuid: string) {
  return {
    actor: context.actor,
    resourceType: "payment_link",
    resourceId: linkPaymentUuid,
    ip: context.ip,
    userAgent: context.userAgent,
  };
}

function toCreateRequest(input: TCreatePaymentLink): TCreatePaymentLinkRequest {
  return {
    nomePagador: input.payerName,
    numeroInscricao: input.payerDocument,
    valor: centsToAmount(input.amountCents),
    isEstrangeiro: input.isForeignPayer,
    numeroParcelas: input.installments,
    descricao: input.description,
    userReference: input.userReference,
    metodosPagamentosAceitos: input.acceptedMethodCodes,
    diasExpiracao: input.expirationDays,
  };
}

async function waitForPendingRequest(idempotencyKey: string): Promise<{ linkPaymentUuid: string }> {
  const deadline = Date.now() + pendingRequestWaitMs;
  while (Date.now() < deadline) {
    await sleep(100);
    const request = await db.paymentLinkRequest.findUnique({ where: { idempotencyKey } });
    if (request?.state === "DONE" && request.linkPaymentUuid) return { linkPaymentUuid: request.linkPaymentUuid };
    if (!request || request.state === "FAILED") break;
  }
  throw new AppError(
    "CONFLICT",
    "This link is still being created, or its creation failed: check the link list before trying again.",
  );
}

async function claimIdempotencyKey(
  idempotencyKey: string,
  context: ChangeContext,
): Promise<{ linkPaymentUuid: string } | null> {
  try {
    await db.paymentLinkRequest.create({ data: { idempotencyKey, createdById: context.actor?.id ?? null } });
    return null;
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
  const existing = await db.paymentLinkRequest.findUniqueOrThrow({ where: { idempotencyKey } });
  if (existing.state === "DONE" && existing.linkPaymentUuid) return { linkPaymentUuid: existing.linkPaymentUuid };
  if (existing.state === "FAILED") {
    throw new AppError(
      "CONFLICT",
      "The first attempt of this link had no clear answer from the gateway: refresh the link list from the gateway before creating it again.",
    );
  }
  return waitForPendingRequest(idempotencyKey);
}

/**
 * Creates a link upstream once per idempotency key (the form's): the key's row is written before
 * the call, so a doubled or retried submit returns the first submit's link and never reaches the
 * gateway a second time (the same scheme as Pix charges, docs/pix.md).
 */
export async function createPaymentLink(
  input: TCreatePaymentLink,
  context: ChangeContext,
): Promise<{ linkPaymentUuid: string }> {
  const { idempotencyKey } = input;
  const earlier = await claimIdempotencyKey(idempotencyKey, context);
  if (earlier) return earlier;

  let link: TPaymentLink;
  try {
    link = await gateway.createPaymentLink(toCreateRequest(input));
  } catch (error) {
    if (isCertainlyNotApplied(error)) {
      await db.paymentLinkRequest.delete({ where: { idempotencyKey } });
    } else {
      await db.paymentLinkRequest.update({
        where: { idempotencyKey },
        data: { state: "FAILED", error: String(error).slice(0, 500) },
      });
    }
    throw toAppError(error);
  }

  await db.$transaction(async (tx) => {
    await upsertPaymentLinkFromGateway(link, { client: tx, createdById: context.actor?.id ?? null });
    await tx.paymentLinkRequest.update({
      where: { idempotencyKey },
      data: { state: "DONE", linkPaymentUuid: link.linkPaymentUuid },
    });
    await recordAudit(
      {
        ...auditFields(context, link.linkPaymentUuid),
        action: "payment_link.created",
        metadata: {
          amountCents: input.amountCents,
          installments: input.installments,
          acceptedMethodCodes: input.acceptedMethodCodes,
          idempotencyKey,
        },
      },
      tx,
    );
  });
  return { linkPaymentUuid: link.linkPaymentUuid };
}

// Reads the link upstream into the mirror. Null when upstream does not know it.
async function syncPaymentLink(linkPaymentUuid: string): Promise<PaymentLink | null> {
  try {
    return (await upsertPaymentLinkFromGateway(await gateway.getPaymentLink(linkPaymentUuid))).link;
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 404) return null;
    throw error;
  }
}

function findMirroredLink(linkPaymentUuid: string): Promise<PaymentLink | null> {
  return db.paymentLink.findUnique({ where: { linkPaymentUuid } });
}

function needsRead(link: PaymentLink, now: Date): boolean {
  return (
    link.statusCode === paymentLinkStatusCodes.CREATED && now.getTime() - link.syncedAt.getTime() > openLinkMaxAgeMs
  );
}

/**
 * The link page's data, from the mirror. It is read upstream first when `refresh` is asked, when it
 * is not mirrored yet, or while it can still be paid and the mirror is older than a second. When the
 * gateway cannot be reached the mirrored state is shown.
 */
export async function getPaymentLinkView(
  linkPaymentUuid: string,
  options: { refresh?: boolean } = {},
): Promise<PaymentLinkView | null> {
  let mirrored = options.refresh ? undefined : await findMirroredLink(linkPaymentUuid);
  if (mirrored && !needsRead(mirrored, new Date())) return toPaymentLinkView(mirrored, new Date());
  try {
    const synced =
      (await syncPaymentLink(linkPaymentUuid)) ??
      (mirrored === undefined ? await findMirroredLink(linkPaymentUuid) : mirrored);
    return synced && toPaymentLinkView(synced, new Date());
  } catch (error) {
    mirrored ??= await findMirroredLink(linkPaymentUuid);
    if (!mirrored) throw toAppError(error);
    log.warn({ err: error, linkPaymentUuid }, "payment link shown from the mirror: the gateway read failed");
    return toPaymentLinkView(mirrored, new Date());
  }
}

const sortFields: Record<TPaymentLinkFilters["sort"], keyof PaymentLink> = {
  creationDate: "creationDate",
  amount: "amountCents",
  status: "statusCode",
  expiresAt: "expiresAt",
  payerName: "payerName",
};

// A CREATED link past its expiry counts as EXPIRADO (upstream already says so), not ATIVO.
function statusWhere(status: TPaymentLinkFilters["status"], now: Date): Prisma.PaymentLinkWhereInput {
  const { CREATED, EXPIRED } = paymentLinkStatusCodes;
  switch (status) {
    case undefined:
      return {};
    case "ATIVO":
      return { statusCode: CREATED, expiresAt: { gt: now } };
    case "EXPIRADO":
      return { OR: [{ statusCode: EXPIRED }, { statusCode: CREATED, expiresAt: { lte: now } }] };
    default:
      return { statusCode: statusCodeByFilter[status] };
  }
}

/** The link list, from the mirror. The period defaults to the last 30 days (São Paulo dates). */
export async function findPaymentLinks(
  filters: TPaymentLinkFilters,
  pageSize = paymentLinkPageSize,
): Promise<ListPage<PaymentLinkListRow>> {
  const now = new Date();
  const fallback = defaultLinkPeriod(now);
  const period = { from: filters.from ?? fallback.from, to: filters.to ?? fallback.to };
  const document = filters.document;
  const where: Prisma.PaymentLinkWhereInput = {
    AND: [
      { creationDate: periodBounds(period) },
      statusWhere(filters.status, now),
      // A CPF/CNPJ is stored as digits, a foreign document as typed.
      document ? { payerDocument: { in: [...new Set([document, document.replace(/\D/g, "")].filter(Boolean))] } } : {},
      { paidMethodCode: filters.method, userReference: filters.userReference, paymentReceipt: filters.receipt },
    ],
  };
  const [total, links] = await Promise.all([
    db.paymentLink.count({ where }),
    db.paymentLink.findMany({
      where,
      orderBy: [{ [sortFields[filters.sort]]: filters.order }, { linkPaymentUuid: filters.order }],
      skip: (filters.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return {
    rows: links.map((link) => toPaymentLinkListRow(link, now)),
    total,
    page: filters.page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** Every link upstream created in the period (one call: the list is a plain array), into the mirror. */
export async function refreshPaymentLinksFromGateway(period: TPeriod): Promise<RefreshLinksResult> {
  let links: TPaymentLink[];
  try {
    // Zone-less date-times are Brasília time upstream, as the mirror's São Paulo days.
    const { initialDate, endDate } = toUpstreamPeriod(period);
    links = await gateway.listPaymentLinks({ startDate: initialDate, endDate });
  } catch (error) {
    throw toAppError(error);
  }
  let upserted = 0;
  for (const link of links) {
    const { outcome } = await upsertPaymentLinkFromGateway(link);
    if (outcome === "created" || outcome === "updated") upserted += 1;
  }
  return { received: links.length, upserted };
}

function conflictMessage(link: PaymentLink | null): string {
  if (link?.statusCode === paymentLinkStatusCodes.PAID) return "alreadyPaid";
  if (link?.statusCode === paymentLinkStatusCodes.CANCELLED) return "alreadyCancelled";
  return "notCancellable";
}

/**
 * Cancels a link that is neither paid nor cancelled. A 409 (paid or cancelled meanwhile) reads the
 * link again so the page shows why; its message is a `links.errors` key.
 */
export async function cancelPaymentLink(linkPaymentUuid: string, context: ChangeContext): Promise<PaymentLinkView> {
  // Upstream does not know of a payment made by Pix on the hosted page (lib/links/pix.ts): the
  // mirror does, and it wins.
  const mirrored = await findMirroredLink(linkPaymentUuid);
  if (mirrored?.statusCode === paymentLinkStatusCodes.PAID) throw new AppError("CONFLICT", conflictMessage(mirrored));

  let cancelled: TPaymentLink;
  try {
    cancelled = await gateway.cancelPaymentLink(linkPaymentUuid);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409) {
      const current = await syncPaymentLink(linkPaymentUuid).catch((readError: unknown) => {
        log.warn({ err: readError, linkPaymentUuid }, "payment link read after a refused cancel failed");
        return findMirroredLink(linkPaymentUuid);
      });
      throw new AppError("CONFLICT", conflictMessage(current), { cause: error });
    }
    throw toAppError(error);
  }
  const link = await db.$transaction(async (tx) => {
    const written = await upsertPaymentLinkFromGateway(cancelled, { client: tx });
    await recordAudit({ ...auditFields(context, linkPaymentUuid), action: "payment_link.cancelled" }, tx);
    return written.link;
  });
  return toPaymentLinkView(link, new Date());
}
