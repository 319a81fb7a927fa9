import "server-only";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import { AppError, type TMessageKey } from "@/lib/errors";
import { GatewayHttpError, isCertainlyNotApplied, toAppError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payment-links";
import type { TCreatePaymentLinkRequest, TPaymentLink } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink, Prisma } from "@/lib/generated/prisma/client";
import { findClaimedResultIds, runIdempotent, type TIdempotentAttempt } from "@/lib/idempotency/idempotency";
import { defaultPeriod, periodBounds, type TPeriod, toSaoPauloDay, toUpstreamPeriod } from "@/lib/list/period";
import { findListPage, orderByThen, type TListPage } from "@/lib/list/query";
import { defineListSpec } from "@/lib/list/spec";
import { log } from "@/lib/log";
import { readThroughMirror } from "@/lib/mirror/read-through";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";
import { centsToAmount } from "@/lib/shared/money";
import { activeTraceParent } from "@/lib/telemetry/tracing";
import { getCardLock } from "./card-attempts";
import { refreshPaymentLink, upsertPaymentLinkFromGateway } from "./mirror";
import { getVerificationLock } from "./pay-page-verify";
import { closeLinkPixCharge, getLinkPixRefundDue } from "./pix";
import { type TCreatePaymentLink, type TPaymentLinkFilters, ZPaymentLinkFilters } from "./schemas";
import { isLinkSettledByPix } from "./settlement";
import {
  paymentLinkMethodCodes,
  paymentLinkStatusCodes,
  statusCodeByFilter,
  type TPaymentLinkListRow,
  type TPaymentLinkView,
  type TRefreshLinksResult,
} from "./types";
import { paymentLinkListSelect, toPaymentLinkListRow, toPaymentLinkView } from "./views";

const paymentLinkPageSize = 20;
// The list's period when none is given (it is never open-ended: upstream requires one).
const paymentLinkPeriodDays = 30;
// A CREATED link older than this in the mirror is read again before it is shown (polling rate).
const openLinkMaxAgeMs = 1000;
const paymentLinkIdempotencyScope = "payment_link";
// How far apart the app's and upstream's clocks may be when a recovery looks for a link by time.
const clockSkewMs = 60_000;

export function defaultLinkPeriod(now: Date = new Date()): TPeriod {
  return defaultPeriod(now, paymentLinkPeriodDays);
}

const auditFields = (context: TChangeContext, linkPaymentUuid: string) =>
  auditFieldsOf(context, "payment_link", linkPaymentUuid);

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

const sameText = (a: string | null | undefined, b: string | null | undefined) => (a || null) === (b || null);

// Upstream keeps no key of ours: an earlier attempt's link is found by its request among links created since the claim.
async function findLinkOfEarlierAttempt(
  body: TCreatePaymentLinkRequest,
  attempt: TIdempotentAttempt,
): Promise<TPaymentLink | null> {
  // The link list takes zone-less Brasília times: whole São Paulo days around the attempt.
  const { initialDate, endDate } = toUpstreamPeriod({
    from: toSaoPauloDay(new Date(attempt.firstClaimedAt.getTime() - clockSkewMs)),
    to: toSaoPauloDay(new Date(Date.now() + clockSkewMs)),
  });
  const links = await gateway.listPaymentLinks({ startDate: initialDate, endDate });
  const document = (value: string) => (body.isEstrangeiro ? value : onlyDigits(value));
  const candidates = links.filter(
    (link) =>
      link.valor === body.valor &&
      link.nomePagador === body.nomePagador &&
      document(link.numeroInscricao) === document(body.numeroInscricao) &&
      link.isEstrangeiro === body.isEstrangeiro &&
      link.numeroParcelas === body.numeroParcelas &&
      link.diasExpiracao === body.diasExpiracao &&
      sameText(link.descricao, body.descricao) &&
      sameText(link.userReference, body.userReference),
  );
  const taken = await findClaimedResultIds(
    paymentLinkIdempotencyScope,
    candidates.map((link) => link.linkPaymentUuid),
  );
  return candidates.find((link) => !taken.has(link.linkPaymentUuid)) ?? null;
}

// Once per idempotency key: a doubled or retried submit returns the first submit's link.
export async function createPaymentLink(
  input: TCreatePaymentLink,
  context: TChangeContext,
): Promise<{ linkPaymentUuid: string }> {
  const { idempotencyKey, ...request } = input;
  const body = toCreateRequest(input);
  const createdById = context.actor?.id ?? null;
  try {
    const { resultId } = await runIdempotent({
      scope: paymentLinkIdempotencyScope,
      key: idempotencyKey,
      request,
      actorId: createdById,
      isCertainlyNotApplied,
      run: async (attempt) => {
        const link =
          (attempt.isRecovery ? await findLinkOfEarlierAttempt(body, attempt) : null) ??
          (await gateway.createPaymentLink(body));
        await inTransaction(async (tx) => {
          await upsertPaymentLinkFromGateway(link, { client: tx, createdById, traceParent: activeTraceParent() });
          await attempt.succeed(tx, link.linkPaymentUuid);
          await recordAudit(
            {
              ...auditFields(context, link.linkPaymentUuid),
              action: "payment_link.created",
              metadata: {
                amountCents: input.amountCents,
                installments: input.installments,
                acceptedMethodCodes: input.acceptedMethodCodes,
                idempotencyKey,
                isRecovery: attempt.isRecovery,
              },
            },
            tx,
          );
        });
        return link.linkPaymentUuid;
      },
    });
    return { linkPaymentUuid: resultId };
  } catch (error) {
    throw toAppError(error);
  }
}

function findMirroredLink(linkPaymentUuid: string): Promise<PaymentLink | null> {
  return db.paymentLink.findUnique({ where: { linkPaymentUuid } });
}

function needsRead(link: PaymentLink, now: Date): boolean {
  return (
    link.statusCode === paymentLinkStatusCodes.CREATED &&
    !isLinkSettledByPix(link) &&
    now.getTime() - link.syncedAt.getTime() > openLinkMaxAgeMs
  );
}

// Read upstream on `refresh`, when unmirrored, or while payable and over a second old; else the mirror answers.
export async function getPaymentLinkView(
  linkPaymentUuid: string,
  options: { refresh?: boolean } = {},
): Promise<TPaymentLinkView | null> {
  const view = await readPaymentLinkView(linkPaymentUuid, options);
  if (view?.statusCode === paymentLinkStatusCodes.CANCELLED) {
    const link = await findMirroredLink(linkPaymentUuid);
    const pixRefundDue = link
      ? await getLinkPixRefundDue(link).catch((error: unknown) => {
          log.warn({ err: error, linkPaymentUuid }, "the cancelled link's Pix charge could not be read");
          return null;
        })
      : null;
    return { ...view, pixRefundDue };
  }
  if (!view || view.statusCode !== paymentLinkStatusCodes.CREATED) return view;
  const [cardLock, verificationLock] = await Promise.all([
    getCardLock(linkPaymentUuid),
    getVerificationLock(linkPaymentUuid),
  ]);
  return { ...view, cardLock, verificationLock };
}

async function readPaymentLinkView(
  linkPaymentUuid: string,
  options: { refresh?: boolean },
): Promise<TPaymentLinkView | null> {
  const mirrored = options.refresh ? undefined : await findMirroredLink(linkPaymentUuid);
  if (mirrored && !needsRead(mirrored, new Date())) return toPaymentLinkView(mirrored, new Date());
  const shown = await readThroughMirror({
    read: async () =>
      (await refreshPaymentLink(linkPaymentUuid)) ??
      (mirrored === undefined ? await findMirroredLink(linkPaymentUuid) : mirrored),
    mirrored,
    readMirror: () => findMirroredLink(linkPaymentUuid),
    warning: { fields: { linkPaymentUuid }, message: "payment link shown from the mirror: the gateway read failed" },
  });
  return shown && toPaymentLinkView(shown, new Date());
}

const sortFields: Record<TPaymentLinkFilters["sort"], keyof PaymentLink> = {
  creationDate: "creationDate",
  amount: "amountCents",
  status: "statusCode",
  expiresAt: "expiresAt",
  payerName: "payerName",
};

// A CREATED link past expiry is EXPIRADO (as upstream says); one paid by Pix is PAGO (upstream keeps it CREATED).
function statusWhere(status: TPaymentLinkFilters["status"], now: Date): Prisma.PaymentLinkWhereInput {
  const { CREATED, EXPIRED, PAID } = paymentLinkStatusCodes;
  const notPaidByPix = { pixPaidTxid: null };
  switch (status) {
    case undefined:
      return {};
    case "ATIVO":
      return { statusCode: CREATED, expiresAt: { gt: now }, ...notPaidByPix };
    case "EXPIRADO":
      return {
        OR: [{ statusCode: EXPIRED }, { statusCode: CREATED, expiresAt: { lte: now } }],
        ...notPaidByPix,
      };
    case "PAGO":
      return { OR: [{ statusCode: PAID }, { pixPaidTxid: { not: null } }] };
    default:
      return { statusCode: statusCodeByFilter[status] };
  }
}

function paymentLinkListWhere(filters: Omit<TPaymentLinkFilters, "sort" | "order" | "page">, now: Date) {
  const fallback = defaultLinkPeriod(now);
  const period = { from: filters.from ?? fallback.from, to: filters.to ?? fallback.to };
  const document = filters.document;
  const where: Prisma.PaymentLinkWhereInput = {
    AND: [
      { creationDate: periodBounds(period) },
      statusWhere(filters.status, now),
      // A CPF/CNPJ is stored as digits, a foreign document as typed.
      document ? { payerDocument: { in: [...new Set([document, document.replace(/\D/g, "")].filter(Boolean))] } } : {},
      { userReference: filters.userReference },
      // A link paid by Pix keeps its method and receipt (the txid) apart from the mirrored fields.
      filters.method === paymentLinkMethodCodes.PIX
        ? { OR: [{ paidMethodCode: filters.method }, { pixPaidTxid: { not: null } }] }
        : { paidMethodCode: filters.method },
      filters.receipt ? { OR: [{ paymentReceipt: filters.receipt }, { pixPaidTxid: filters.receipt }] } : {},
    ],
  };
  return where;
}

export const paymentLinkList = defineListSpec({
  schema: ZPaymentLinkFilters,
  where: paymentLinkListWhere,
  select: paymentLinkListSelect,
  field: "creationDate",
  tieBreaker: "linkPaymentUuid",
});

export async function findPaymentLinks(
  filters: TPaymentLinkFilters,
  pageSize = paymentLinkPageSize,
): Promise<TListPage<TPaymentLinkListRow>> {
  const reader = await readDb();
  const now = new Date();
  const where = paymentLinkListWhere(filters, now);
  return findListPage(
    { page: filters.page, pageSize },
    {
      sumField: "amountCents",
      aggregate: () => reader.paymentLink.aggregate({ where, _count: { _all: true }, _sum: { amountCents: true } }),
      findMany: async (window) =>
        (
          await reader.paymentLink.findMany({
            where,
            select: paymentLinkListSelect,
            orderBy: orderByThen(sortFields[filters.sort], "linkPaymentUuid", filters.order),
            ...window,
          })
        ).map((link) => toPaymentLinkListRow(link, now)),
    },
  );
}

export async function refreshPaymentLinksFromGateway(period: TPeriod): Promise<TRefreshLinksResult> {
  let links: TPaymentLink[];
  try {
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

function conflictMessage(link: PaymentLink | null): TMessageKey {
  if (link && (link.statusCode === paymentLinkStatusCodes.PAID || isLinkSettledByPix(link)))
    return "links.errors.alreadyPaid";
  if (link?.statusCode === paymentLinkStatusCodes.CANCELLED) return "links.errors.alreadyCancelled";
  return "links.errors.notCancellable";
}

async function closePixChargeOf(linkPaymentUuid: string, context: TChangeContext): Promise<boolean> {
  const link = await findMirroredLink(linkPaymentUuid);
  if (!link) return false;
  try {
    return await closeLinkPixCharge(link, context);
  } catch (error) {
    throw toAppError(error);
  }
}

// A 409 reads the link again so the page shows why; its open Pix charge is cancelled first (upstream does not tie them).
export async function cancelPaymentLink(linkPaymentUuid: string, context: TChangeContext): Promise<TPaymentLinkView> {
  // Upstream does not know of a payment by Pix on the hosted page: the mirror does, and it wins.
  const mirrored = await findMirroredLink(linkPaymentUuid);
  if (mirrored && (mirrored.statusCode === paymentLinkStatusCodes.PAID || isLinkSettledByPix(mirrored)))
    throw new AppError("CONFLICT", conflictMessage(mirrored));
  if (await closePixChargeOf(linkPaymentUuid, context)) throw new AppError("CONFLICT", "links.errors.alreadyPaid");

  let cancelled: TPaymentLink;
  try {
    cancelled = await gateway.cancelPaymentLink(linkPaymentUuid);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409) {
      const current = await refreshPaymentLink(linkPaymentUuid).catch((readError: unknown) => {
        log.warn({ err: readError, linkPaymentUuid }, "payment link read after a refused cancel failed");
        return findMirroredLink(linkPaymentUuid);
      });
      throw new AppError("CONFLICT", conflictMessage(current), { cause: error });
    }
    throw toAppError(error);
  }
  const link = await inTransaction(async (tx) => {
    const written = await upsertPaymentLinkFromGateway(cancelled, { client: tx });
    await recordAudit({ ...auditFields(context, linkPaymentUuid), action: "payment_link.cancelled" }, tx);
    return written.link;
  });
  // A charge paid in between is left for staff to refund (the link page shows it).
  await closePixChargeOf(linkPaymentUuid, context).catch((error: unknown) =>
    log.warn({ err: error, linkPaymentUuid }, "the cancelled link's Pix charge could not be closed"),
  );
  return toPaymentLinkView(link, new Date());
}
