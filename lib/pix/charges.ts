import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { defaultPeriod, periodBounds, toUpstreamPeriod } from "@/lib/format/period";
import { GatewayHttpError, isCertainlyNotApplied, toAppError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/pix-charges";
import type { TCreatePixChargeRequest } from "@/lib/gateway/schemas/pix-charge";
import { type PixCharge, Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { isValidCpf } from "@/lib/shared/cpf-cnpj";
import { centsToAmount } from "@/lib/shared/money";
import type { ChangeContext } from "@/lib/users/users";
import { findMirroredPixCharge, type MirroredPixCharge, upsertPixChargeFromGateway } from "./mirror";
import type { TCreatePixCharge, TPixChargeFilters } from "./schemas";
import type { ListPage, PixChargeListRow, PixChargeView, RefreshPageResult } from "./types";
import { toPixChargeView } from "./views";

export const pixChargePageSize = 20;
// Upstream pages for "refresh from gateway": the sandbox allows up to 100 per page.
const refreshPageSize = 100;
// An ACTIVE charge older than this in the mirror is read again before it is shown (polling rate).
const activeChargeMaxAgeMs = 1000;
// How long a second submit of the same form waits for the first one to finish.
const pendingRequestWaitMs = 20_000;

function auditFields(context: ChangeContext, txid: string) {
  return {
    actor: context.actor,
    resourceType: "pix_charge",
    resourceId: txid,
    ip: context.ip,
    userAgent: context.userAgent,
  };
}

function toCreateRequest(input: TCreatePixCharge): TCreatePixChargeRequest {
  const { debtor } = input;
  return {
    amount: centsToAmount(input.amountCents),
    expiration: input.expirationSeconds,
    debtor: debtor && {
      name: debtor.name,
      ...(isValidCpf(debtor.document)
        ? { naturalPersonIdentification: debtor.document }
        : { legalPersonIdentification: debtor.document }),
    },
    description: input.description,
    userReference: input.userReference,
  };
}

async function waitForPendingRequest(idempotencyKey: string): Promise<{ txid: string }> {
  const deadline = Date.now() + pendingRequestWaitMs;
  while (Date.now() < deadline) {
    await sleep(100);
    const request = await db.pixChargeRequest.findUnique({ where: { idempotencyKey } });
    if (request?.state === "DONE" && request.txid) return { txid: request.txid };
    if (!request || request.state === "FAILED") break;
  }
  throw new AppError(
    "CONFLICT",
    "This charge is still being created, or its creation failed: check the charge list before trying again.",
  );
}

async function claimIdempotencyKey(idempotencyKey: string, context: ChangeContext): Promise<{ txid: string } | null> {
  try {
    await db.pixChargeRequest.create({ data: { idempotencyKey, createdById: context.actor?.id ?? null } });
    return null;
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
  const existing = await db.pixChargeRequest.findUniqueOrThrow({ where: { idempotencyKey } });
  if (existing.state === "DONE" && existing.txid) return { txid: existing.txid };
  if (existing.state === "FAILED") {
    throw new AppError(
      "CONFLICT",
      "The first attempt of this charge had no clear answer from the gateway: refresh the charge list from the gateway before creating it again.",
    );
  }
  return waitForPendingRequest(idempotencyKey);
}

/**
 * Issues a charge upstream once per idempotency key: the key's row is written before the call, so a
 * doubled or retried submit returns the first submit's txid (waiting for it if still running) and
 * never reaches the gateway a second time.
 */
export async function createPixCharge(input: TCreatePixCharge, context: ChangeContext): Promise<{ txid: string }> {
  const { idempotencyKey } = input;
  const earlier = await claimIdempotencyKey(idempotencyKey, context);
  if (earlier) return earlier;

  let charge: Awaited<ReturnType<typeof gateway.createPixCharge>>;
  try {
    charge = await gateway.createPixCharge(toCreateRequest(input));
  } catch (error) {
    if (isCertainlyNotApplied(error)) {
      await db.pixChargeRequest.delete({ where: { idempotencyKey } });
    } else {
      await db.pixChargeRequest.update({
        where: { idempotencyKey },
        data: { state: "FAILED", error: String(error).slice(0, 500) },
      });
    }
    throw toAppError(error);
  }

  await db.$transaction(async (tx) => {
    await upsertPixChargeFromGateway(charge, { client: tx, createdById: context.actor?.id ?? null });
    await tx.pixChargeRequest.update({ where: { idempotencyKey }, data: { state: "DONE", txid: charge.txid } });
    await recordAudit(
      {
        ...auditFields(context, charge.txid),
        action: "pix_charge.created",
        metadata: { amountCents: input.amountCents, idempotencyKey },
      },
      tx,
    );
  });
  return { txid: charge.txid };
}

// Reads the charge upstream into the mirror. Null when upstream does not know it.
async function syncPixCharge(txid: string): Promise<MirroredPixCharge | null> {
  try {
    return (await upsertPixChargeFromGateway(await gateway.getPixCharge(txid))).charge;
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 404) return null;
    throw error;
  }
}

function needsRead(charge: PixCharge, now: Date): boolean {
  const isOpen = charge.status === "ACTIVE" || charge.status === "CREATED";
  return isOpen && now.getTime() - charge.syncedAt.getTime() > activeChargeMaxAgeMs;
}

/**
 * The charge page's data, from the mirror. It is read upstream first when `refresh` is asked, when
 * it is not mirrored yet, or while it can still be paid and the mirror is older than a second (so
 * polling sees a payment). When the gateway cannot be reached the mirrored state is shown.
 */
export async function getPixChargeView(
  txid: string,
  options: { refresh?: boolean } = {},
): Promise<PixChargeView | null> {
  let mirrored = options.refresh ? undefined : await findMirroredPixCharge(txid);
  if (mirrored && !needsRead(mirrored, new Date())) return toPixChargeView(mirrored, new Date());
  try {
    const synced =
      (await syncPixCharge(txid)) ?? (mirrored === undefined ? await findMirroredPixCharge(txid) : mirrored);
    return synced && toPixChargeView(synced, new Date());
  } catch (error) {
    mirrored ??= await findMirroredPixCharge(txid);
    if (!mirrored) throw toAppError(error);
    log.warn({ err: error, txid }, "pix charge shown from the mirror: the gateway read failed");
    return toPixChargeView(mirrored, new Date());
  }
}

const sortFields: Record<TPixChargeFilters["sort"], keyof PixCharge> = {
  creationDate: "creationDate",
  amount: "amountCents",
  status: "status",
  expirationDate: "expiresAt",
  txid: "txid",
};

export function toPixChargeListRow(charge: PixCharge): PixChargeListRow {
  return {
    txid: charge.txid,
    status: charge.status,
    amountCents: charge.amountCents,
    createdAt: charge.creationDate.toISOString(),
    expiresAt: charge.expiresAt.toISOString(),
    debtorName: charge.debtorName,
    debtorDocument: charge.debtorCpf ?? charge.debtorCnpj,
    description: charge.description,
    userReference: charge.userReference,
    refundedCents: charge.refundedCents,
  };
}

/** The charge list, from the mirror. The period defaults to the last 7 days (São Paulo dates). */
export async function findPixCharges(
  filters: TPixChargeFilters,
  pageSize = pixChargePageSize,
): Promise<ListPage<PixChargeListRow>> {
  const fallback = defaultPeriod();
  const period = { from: filters.from ?? fallback.from, to: filters.to ?? fallback.to };
  const where: Prisma.PixChargeWhereInput = {
    creationDate: periodBounds(period),
    status: filters.status,
    ...(filters.document ? { OR: [{ debtorCpf: filters.document }, { debtorCnpj: filters.document }] } : {}),
    userReference: filters.userReference,
    txid: filters.txid ? { contains: filters.txid, mode: "insensitive" } : undefined,
  };
  const [total, charges] = await Promise.all([
    db.pixCharge.count({ where }),
    db.pixCharge.findMany({
      where,
      orderBy: [{ [sortFields[filters.sort]]: filters.order }, { txid: filters.order }],
      skip: (filters.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return {
    rows: charges.map(toPixChargeListRow),
    total,
    page: filters.page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** One page (from 0) of the upstream list for the period, written into the mirror. */
export async function refreshPixChargesPage(input: {
  from: string;
  to: string;
  page: number;
}): Promise<RefreshPageResult> {
  let result: Awaited<ReturnType<typeof gateway.listPixCharges>>;
  try {
    result = await gateway.listPixCharges({
      ...toUpstreamPeriod(input),
      page: input.page,
      size: refreshPageSize,
      sort: "creationDate,asc",
    });
  } catch (error) {
    throw toAppError(error);
  }
  let upserted = 0;
  for (const item of result.content) {
    const { outcome } = await upsertPixChargeFromGateway(item);
    if (outcome === "created" || outcome === "updated") upserted += 1;
  }
  return { page: result.number, totalPages: result.totalPages, upserted };
}

/**
 * Cancels an ACTIVE or CREATED charge. When upstream refuses (paid, expired or already cancelled)
 * the mirror is read again, so the page shows why.
 */
export async function cancelPixCharge(txid: string, context: ChangeContext): Promise<PixChargeView> {
  let cancelled: Awaited<ReturnType<typeof gateway.cancelPixCharge>>;
  try {
    cancelled = await gateway.cancelPixCharge(txid);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409) {
      await syncPixCharge(txid).catch((readError: unknown) =>
        log.warn({ err: readError, txid }, "pix charge read after a refused cancel failed"),
      );
      const status = (await db.pixCharge.findUnique({ where: { txid }, select: { status: true } }))?.status;
      throw new AppError("CONFLICT", `This charge can no longer be cancelled${status ? `: it is ${status}` : ""}.`, {
        cause: error,
      });
    }
    throw toAppError(error);
  }
  const mirrored = await db.$transaction(async (tx) => {
    const { charge } = await upsertPixChargeFromGateway(cancelled, { client: tx });
    await recordAudit({ ...auditFields(context, txid), action: "pix_charge.cancelled" }, tx);
    return charge;
  });
  return toPixChargeView(mirrored, new Date());
}
