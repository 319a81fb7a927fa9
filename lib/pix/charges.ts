import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext, type TRecordAuditInput } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import { AppError } from "@/lib/errors";
import { GatewayHttpError, isCertainlyNotApplied, toAppError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/pix-charges";
import type { TCreatePixChargeRequest, TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import type { PixCharge, Prisma } from "@/lib/generated/prisma/client";
import { findClaimedResultIds, runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { defaultPeriod, periodBounds, toUpstreamPeriod } from "@/lib/list/period";
import { findListPage, orderByThen, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import { log } from "@/lib/log";
import { readOrNullWhenUnknown, readThroughMirror } from "@/lib/mirror/read-through";
import { isValidCpf, onlyDigits } from "@/lib/shared/cpf-cnpj";
import { centsToAmount } from "@/lib/shared/money";
import { activeTraceParent } from "@/lib/telemetry/tracing";
import {
  findMirroredPixCharge,
  recordCreatedPixCharge,
  syncPixChargeFromGateway,
  type TMirroredPixCharge,
  upsertPixChargeFromGateway,
} from "./mirror";
import { type TCreatePixCharge, type TPixChargeFilters, ZPixChargeFilters } from "./schemas";
import { pixReceivedStatuses, type TPixChargeListRow, type TPixChargeView, type TRefreshPageResult } from "./types";
import { toPixChargeView } from "./views";

const pixChargePageSize = 20;
// The sandbox allows up to 100 per page.
const refreshPageSize = 100;
// An ACTIVE charge older than this in the mirror is read again before it is shown (polling rate).
const activeChargeMaxAgeMs = 1000;
const pixChargeIdempotencyScope = "pix_charge";
// How far apart the app's and upstream's clocks may be when a recovery looks for a charge by time.
const clockSkewMs = 60_000;

const auditFields = (context: TChangeContext, txid: string) => auditFieldsOf(context, "pix_charge", txid);

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

const sameText = (a: string | null | undefined, b: string | null | undefined) => (a || null) === (b || null);

// Upstream keeps no key of ours: an earlier attempt's charge is found by its request among charges created since the claim.
async function findChargeOfEarlierAttempt(
  body: TCreatePixChargeRequest,
  attempt: TIdempotentAttempt,
): Promise<TPixCharge | null> {
  const page = await gateway.listPixCharges({
    initialDate: new Date(attempt.firstClaimedAt.getTime() - clockSkewMs).toISOString(),
    endDate: new Date(Date.now() + clockSkewMs).toISOString(),
    userReference: body.userReference,
    page: 0,
    size: refreshPageSize,
    sort: "creationDate,asc",
  });
  const document = (value: string | null | undefined) => (value ? onlyDigits(value) : null);
  const candidates = page.content.filter(
    (item) =>
      item.amount === body.amount &&
      sameText(item.description, body.description) &&
      sameText(item.userReference, body.userReference) &&
      document(item.debtor?.naturalPersonIdentification) === document(body.debtor?.naturalPersonIdentification) &&
      document(item.debtor?.legalPersonIdentification) === document(body.debtor?.legalPersonIdentification),
  );
  const taken = await findClaimedResultIds(
    pixChargeIdempotencyScope,
    candidates.map((item) => item.txid),
  );
  const found = candidates.find((item) => !taken.has(item.txid));
  return found ? gateway.getPixCharge(found.txid) : null;
}

// Once per idempotency key: a retried submit returns the first txid; `options.request` replaces what the key stands for.
export async function createPixCharge(
  input: TCreatePixCharge,
  context: TChangeContext,
  options: { request?: unknown } = {},
): Promise<{ txid: string }> {
  const { idempotencyKey, ...request } = input;
  const body = toCreateRequest(input);
  const createdById = context.actor?.id ?? null;
  try {
    const { resultId } = await runIdempotent({
      scope: pixChargeIdempotencyScope,
      key: idempotencyKey,
      request: options.request ?? request,
      actorId: createdById,
      isCertainlyNotApplied,
      run: async (attempt) => {
        const charge =
          (attempt.isRecovery ? await findChargeOfEarlierAttempt(body, attempt) : null) ??
          (await gateway.createPixCharge(body));
        const traceParent = activeTraceParent();
        const audit: TRecordAuditInput = {
          ...auditFields(context, charge.txid),
          action: "pix_charge.created",
          metadata: { amountCents: input.amountCents, idempotencyKey, isRecovery: attempt.isRecovery },
        };
        const isRecorded =
          !charge.devolutions?.length &&
          (await recordCreatedPixCharge({
            charge,
            createdById,
            traceParent,
            idempotencyKey: { scope: attempt.scope, key: attempt.key },
            audit,
            now: new Date(),
          }));
        if (isRecorded) {
          attempt.markSucceeded();
          return charge.txid;
        }
        await inTransaction(async (tx) => {
          await upsertPixChargeFromGateway(charge, { client: tx, createdById, traceParent: traceParent ?? undefined });
          await attempt.succeed(tx, charge.txid);
          await recordAudit(audit, tx);
        });
        return charge.txid;
      },
    });
    return { txid: resultId };
  } catch (error) {
    throw toAppError(error);
  }
}

// `mirrored`: the row read beside the upstream call, only compared (an equal answer writes nothing); writes re-read it locked.
async function syncPixCharge(
  txid: string,
  mirrored?: Promise<TMirroredPixCharge | null>,
): Promise<TMirroredPixCharge | null> {
  return readOrNullWhenUnknown(
    async () =>
      (await syncPixChargeFromGateway(txid, "refresh", { mirrored, read: () => gateway.getPixCharge(txid) })).charge,
  );
}

function needsRead(charge: PixCharge, now: Date): boolean {
  const isOpen = charge.status === "ACTIVE" || charge.status === "CREATED";
  return isOpen && now.getTime() - charge.syncedAt.getTime() > activeChargeMaxAgeMs;
}

// Read upstream on `refresh`, when unmirrored, or while payable and over a second old (so polling sees a payment).
export async function getPixChargeView(
  txid: string,
  options: { refresh?: boolean } = {},
): Promise<TPixChargeView | null> {
  const mirrored = options.refresh ? undefined : await findMirroredPixCharge(txid);
  if (mirrored && !needsRead(mirrored, new Date())) return toPixChargeView(mirrored, new Date());
  const current = mirrored === undefined ? findMirroredPixCharge(txid) : Promise.resolve(mirrored);
  const shown = await readThroughMirror({
    read: async () => (await syncPixCharge(txid, current)) ?? (await current),
    mirrored,
    readMirror: () => findMirroredPixCharge(txid),
    warning: { fields: { txid }, message: "pix charge shown from the mirror: the gateway read failed" },
  });
  return shown && toPixChargeView(shown, new Date());
}

const sortFields: Record<TPixChargeFilters["sort"], keyof PixCharge> = {
  creationDate: "creationDate",
  amount: "amountCents",
  status: "status",
  expirationDate: "expiresAt",
  txid: "txid",
};

const pixChargeListSelect = {
  txid: true,
  status: true,
  amountCents: true,
  creationDate: true,
  expiresAt: true,
  debtorName: true,
  debtorCpf: true,
  debtorCnpj: true,
  description: true,
  userReference: true,
  refundedCents: true,
} satisfies Prisma.PixChargeSelect;

function toPixChargeListRow(
  charge: Prisma.PixChargeGetPayload<{ select: typeof pixChargeListSelect }>,
): TPixChargeListRow {
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

function pixChargeListWhere(filters: Omit<TPixChargeFilters, "sort" | "order" | "page" | "cursor">) {
  const fallback = defaultPeriod();
  const period = { from: filters.from ?? fallback.from, to: filters.to ?? fallback.to };
  const where: Prisma.PixChargeWhereInput = {
    ...(filters.date === "paid"
      ? { paidAt: periodBounds(period), status: filters.status ?? { in: [...pixReceivedStatuses] } }
      : { creationDate: periodBounds(period), status: filters.status }),
    ...(filters.document ? { OR: [{ debtorCpf: filters.document }, { debtorCnpj: filters.document }] } : {}),
    userReference: filters.userReference,
    txid: filters.txid ? { contains: filters.txid, mode: "insensitive" } : undefined,
  };
  return where;
}

export const pixChargeList = defineListSpec({
  schema: ZPixChargeFilters,
  where: pixChargeListWhere,
  select: pixChargeListSelect,
  field: "creationDate",
  tieBreaker: "txid",
});

const sortValues: Record<TPixChargeFilters["sort"], (row: TPixChargeListRow) => Date | number | string> = {
  creationDate: (row) => new Date(row.createdAt),
  amount: (row) => row.amountCents,
  status: (row) => row.status,
  expirationDate: (row) => new Date(row.expiresAt),
  txid: (row) => row.txid,
};

export async function findPixCharges(
  filters: TPixChargeFilters,
  pageSize = pixChargePageSize,
): Promise<TListPage<TPixChargeListRow>> {
  const reader = await readDb();
  const where = pixChargeListWhere(filters);
  const field = sortFields[filters.sort];
  return findListPage(
    { page: filters.page, pageSize, cursor: filters.cursor },
    {
      sumField: "amountCents",
      aggregate: (take) =>
        reader.pixCharge.aggregate({
          where,
          take,
          // Along the period's index, so the count stops at `take` rows (Prisma orders a bounded count by the key).
          orderBy: filters.date === "paid" ? { paidAt: "desc" } : { creationDate: "desc" },
          _count: { _all: true },
          _sum: { amountCents: true },
        }),
      findMany: async (window, keyset) =>
        (
          await reader.pixCharge.findMany({
            where: keyset ? { AND: [where, keyset.where as Prisma.PixChargeWhereInput] } : where,
            select: pixChargeListSelect,
            orderBy: orderByThen(field, "txid", keyset?.order ?? filters.order),
            ...window,
          })
        ).map(toPixChargeListRow),
      keyset: {
        sort: filters.sort,
        order: filters.order,
        field,
        tieBreaker: "txid",
        cursorOf: (row) => [sortValues[filters.sort](row), row.txid],
      },
    },
  );
}

export async function refreshPixChargesPage(input: {
  from: string;
  to: string;
  page: number;
}): Promise<TRefreshPageResult> {
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

// When upstream refuses (paid, expired or already cancelled) the mirror is read again, so the page shows why.
export async function cancelPixCharge(txid: string, context: TChangeContext): Promise<TPixChargeView> {
  let cancelled: Awaited<ReturnType<typeof gateway.cancelPixCharge>>;
  try {
    cancelled = await gateway.cancelPixCharge(txid);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409) {
      await syncPixCharge(txid).catch((readError: unknown) =>
        log.warn({ err: readError, txid }, "pix charge read after a refused cancel failed"),
      );
      const status = (await db.pixCharge.findUnique({ where: { txid }, select: { status: true } }))?.status;
      throw new AppError("CONFLICT", status ? "pix.errors.notCancellableStatus" : "pix.errors.notCancellable", {
        cause: error,
        params: status ? { status } : undefined,
      });
    }
    throw toAppError(error);
  }
  const mirrored = await inTransaction(async (tx) => {
    const { charge } = await upsertPixChargeFromGateway(cancelled, { client: tx });
    await recordAudit({ ...auditFields(context, txid), action: "pix_charge.cancelled" }, tx);
    return charge;
  });
  return toPixChargeView(mirrored, new Date());
}
