import "server-only";
import { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { readDb } from "@/lib/db/read-replica";
import { AppError } from "@/lib/errors";
import * as gateway from "@/lib/gateway/cards";
import { GatewayHttpError, isGatewayError, isGatewayNotFound, toAppError } from "@/lib/gateway/errors";
import type { TCard, TCardResult } from "@/lib/gateway/schemas/card";
import type { CardToken, Prisma } from "@/lib/generated/prisma/client";
import { findListPage, type TListPage } from "@/lib/list/query";
import { log } from "@/lib/log";
import { brandFromBandeiraCartao, cardBin, detectCardBrand, isCardExpiryValid } from "@/lib/shared/card";
import { upsertCardTokenFromGateway } from "./mirror";
import type { TAddCard, TCardTokenFilters, TCardTokenStatus } from "./schemas";
import type {
  TAddCardResult,
  TCardTokenLookupResult,
  TCardTokenRow,
  TRefreshCardTokensPageResult,
  TSetCardTokenStatusResult,
} from "./types";

const cardTokenPageSize = 20;

/** Spec "not shown" values (docs/card-tokens.md): the largest list page (sandbox: 100), and a new token's state if its read fails. */
const cardGatewayAssumptions = { refreshPageSize: 100, newTokenStatus: "ATV" } as const;

// A duplicate is looked for in at most this many upstream pages.
const maxDuplicateSearchPages = 50;

const auditFields = (context: TChangeContext, token: string) => auditFieldsOf(context, "card_token", token);

function toCardTokenRow(card: CardToken, now: Date = new Date()): TCardTokenRow {
  return {
    token: card.token,
    gatewayId: card.gatewayId,
    status: card.status,
    brandCode: card.brandCode,
    brand: brandFromBandeiraCartao(card.brandCode),
    bin: card.bin,
    lastFour: card.lastFour,
    expiry: card.expiry,
    isExpired: !isCardExpiryValid(card.expiry, now),
    customerId: card.customerId,
    createdAt: card.createdAtGateway?.toISOString() ?? null,
    modifiedAt: card.modifiedAtGateway?.toISOString() ?? null,
  };
}

const sortFields: Record<TCardTokenFilters["sort"], keyof CardToken> = {
  createdAt: "createdAtGateway",
  modifiedAt: "modifiedAtGateway",
  status: "status",
  brand: "brandCode",
  lastFour: "lastFour",
};

// Dates of rows never read as a Card are unknown: those go last either way (nulls apply to optional fields only).
function orderOf(filters: TCardTokenFilters) {
  const isDate = filters.sort === "createdAt" || filters.sort === "modifiedAt";
  return isDate ? { sort: filters.order, nulls: "last" as const } : filters.order;
}

export async function findCardTokens(
  filters: TCardTokenFilters,
  pageSize = cardTokenPageSize,
): Promise<TListPage<TCardTokenRow>> {
  const where: Prisma.CardTokenWhereInput = {
    status: filters.status,
    brandCode: filters.brand,
    lastFour: filters.lastFour,
    customerId: filters.customerId ? { contains: filters.customerId, mode: "insensitive" } : undefined,
    token: filters.token,
  };
  const now = new Date();
  const reader = await readDb();
  return findListPage(
    { page: filters.page, pageSize },
    {
      count: () => reader.cardToken.count({ where }),
      findMany: async (window) =>
        (
          await reader.cardToken.findMany({
            where,
            orderBy: [
              { [sortFields[filters.sort]]: orderOf(filters) },
              { createdAt: filters.order },
              { token: filters.order },
            ],
            ...window,
          })
        ).map((card) => toCardTokenRow(card, now)),
    },
  );
}

async function readCardByToken(token: string): Promise<TCard | null> {
  try {
    const lookup = await gateway.getCardByToken(token);
    return lookup.cartoes.find((card) => card.token === token) ?? null;
  } catch (error) {
    if (isGatewayNotFound(error)) return null;
    throw error;
  }
}

export async function syncCardToken(
  token: string,
  options: { createdById?: string | null } = {},
): Promise<TCardTokenRow | null> {
  let card: TCard | null;
  try {
    card = await readCardByToken(token);
  } catch (error) {
    throw toAppError(error);
  }
  if (!card) return null;
  const written = await upsertCardTokenFromGateway(card, { createdById: options.createdById });
  return written && toCardTokenRow(written.card);
}

export async function refreshCardTokensPage(input: { page: number }): Promise<TRefreshCardTokensPageResult> {
  let result: Awaited<ReturnType<typeof gateway.listCards>>;
  try {
    result = await gateway.listCards({ page: input.page, size: cardGatewayAssumptions.refreshPageSize });
  } catch (error) {
    throw toAppError(error);
  }
  let upserted = 0;
  for (const card of result.content) {
    const written = await upsertCardTokenFromGateway(card);
    if (written?.outcome === "created" || written?.outcome === "updated") upserted += 1;
  }
  return { page: result.number, totalPages: result.totalPages, upserted };
}

// The gateway's 400 names its own fields (`campo`); the form's are named after ours, with `cards.errors` keys.
const fieldOfUpstream: Record<string, [field: string, key: string]> = {
  numeroCartao: ["number", "invalidNumber"],
  bandeiraCartao: ["number", "unknownBrand"],
  dataExpiracao: ["expiry", "invalidExpiry"],
  clientId: ["customerId", "invalidCustomerId"],
};

function toAddCardError(error: unknown): AppError {
  const appError = toAppError(error);
  if (!(error instanceof GatewayHttpError) || error.status !== 400) return appError;
  const fieldErrors: Record<string, string> = {};
  for (const { campo } of error.fieldErrors) {
    const mapped = fieldOfUpstream[campo];
    if (mapped) fieldErrors[mapped[0]] ??= mapped[1];
  }
  return Object.keys(fieldErrors).length > 0
    ? new AppError("VALIDATION_FAILED", appError.messageKey, { cause: error, params: appError.params, fieldErrors })
    : appError;
}

// Same last four, a BIN the number starts with, same expiry preferred; the number is compared in memory, never written.
async function findMirroredCard(cardNumber: string, expiry: string): Promise<string | null> {
  const rows = await db.cardToken.findMany({
    where: { lastFour: cardNumber.slice(-4) },
    orderBy: [{ createdAtGateway: { sort: "desc", nulls: "last" } }, { token: "asc" }],
  });
  const sameCard = rows.filter((row) => row.bin.length > 0 && cardNumber.startsWith(row.bin));
  return (sameCard.find((row) => row.expiry === expiry) ?? sameCard[0])?.token ?? null;
}

async function findSavedCard(cardNumber: string, expiry: string): Promise<string | null> {
  const mirrored = await findMirroredCard(cardNumber, expiry);
  if (mirrored) return mirrored;
  // Saved elsewhere (another app, the sandbox directly): the gateway's list may show it.
  try {
    for (let page = 0, totalPages = 1; page < totalPages && page < maxDuplicateSearchPages; page++) {
      ({ totalPages } = await refreshCardTokensPage({ page }));
    }
  } catch (error) {
    log.warn({ err: error }, "card token list read after a duplicate failed");
  }
  return findMirroredCard(cardNumber, expiry);
}

/** The number is sent, never kept. A 409 comes back as a duplicate naming its token, so a retried submit is harmless. */
export async function addCardToken(input: TAddCard, context: TChangeContext): Promise<TAddCardResult> {
  const detected = detectCardBrand(input.number);
  if (!detected)
    throw new AppError("VALIDATION_FAILED", "cards.errors.unknownBrand", { fieldErrors: { number: "unknownBrand" } });
  let result: TCardResult;
  try {
    result = await gateway.createCard({
      numeroCartao: input.number,
      dataExpiracao: input.expiry,
      bandeiraCartao: detected.bandeiraCartao,
      clientId: input.customerId,
    });
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409)
      return { status: "duplicate", token: await findSavedCard(input.number, input.expiry) };
    throw toAddCardError(error);
  }
  // The create result has no state or dates: the Card read by token has them.
  const card = await readCardByToken(result.token).catch((error: unknown) => {
    log.warn({ err: error }, "card token read after create failed");
    return null;
  });
  const createdById = context.actor?.id ?? null;
  await inTransaction(async (tx) => {
    if (card) await upsertCardTokenFromGateway(card, { client: tx, createdById });
    await upsertCardTokenFromGateway(result, {
      client: tx,
      createdById,
      known: {
        expiry: input.expiry,
        customerId: input.customerId ?? null,
        status: card ? undefined : cardGatewayAssumptions.newTokenStatus,
      },
    });
    await recordAudit(
      {
        ...auditFields(context, result.token),
        action: "card_token.created",
        metadata: {
          brandCode: detected.bandeiraCartao,
          bin: result.bin || cardBin(input.number),
          lastFour: result.suffix,
          expiry: input.expiry,
          customerId: input.customerId ?? null,
        },
      },
      tx,
    );
  });
  return { status: "created", token: result.token };
}

export async function findCardTokenRow(token: string): Promise<TCardTokenRow | null> {
  const value = token.trim();
  if (!value) return null;
  const row = await db.cardToken.findUnique({ where: { token: value } });
  return row ? toCardTokenRow(row) : null;
}

async function mirroredRow(token: string): Promise<TCardTokenRow> {
  const row = await findCardTokenRow(token);
  if (!row) throw new AppError("NOT_FOUND", "cards.errors.notFound");
  return row;
}

/** A 409 means it already was in that state (3.2): the card is read again and returned as "unchanged", unaudited. */
export async function setCardTokenStatus(
  token: string,
  status: TCardTokenStatus,
  context: TChangeContext,
): Promise<TSetCardTokenStatusResult> {
  let result: Awaited<ReturnType<typeof gateway.enableCard>>;
  try {
    result = status === "ATV" ? await gateway.enableCard(token) : await gateway.disableCard(token);
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 409) {
      const card = await readCardByToken(token).catch((readError: unknown) => {
        log.warn({ err: readError }, "card token read after a refused status change failed");
        return null;
      });
      if (card) await upsertCardTokenFromGateway(card);
      return { status: "unchanged", card: await mirroredRow(token) };
    }
    if (isGatewayNotFound(error)) throw new AppError("NOT_FOUND", "cards.errors.notFound", { cause: error });
    throw toAppError(error);
  }
  // The status result has no dates: the Card read again carries dataModificacao, which orders later writes.
  const card = await readCardByToken(token).catch((error: unknown) => {
    log.warn({ err: error }, "card token read after a status change failed");
    return null;
  });
  const row = await inTransaction(async (tx) => {
    if (card) await upsertCardTokenFromGateway(card, { client: tx });
    const written = await upsertCardTokenFromGateway(result, { client: tx });
    await recordAudit(
      {
        ...auditFields(context, token),
        action: status === "ATV" ? "card_token.enabled" : "card_token.disabled",
        metadata: { bin: result.bin ?? null, lastFour: result.suffix ?? null, status: result.statusCartao },
      },
      tx,
    );
    return written?.card ?? null;
  });
  if (!row) throw new AppError("NOT_FOUND", "cards.errors.notFound");
  return { status: "changed", card: toCardTokenRow(row) };
}

/** Looked up at the gateway and mirrored; the mirror answers when the gateway does not know it or cannot be reached. */
export async function lookUpCardToken(query: string): Promise<TCardTokenLookupResult> {
  const isId = z.uuid().safeParse(query).success;
  try {
    let card: TCard | null = null;
    let byId: TCardResult | null = null;
    if (isId) {
      byId = await gateway.getCardById(query).catch((error: unknown) => {
        if (isGatewayNotFound(error)) return null;
        throw error;
      });
    }
    card = await readCardByToken(byId?.token ?? query);
    if (card) {
      await inTransaction(async (tx) => {
        await upsertCardTokenFromGateway(card, { client: tx });
        if (byId) await upsertCardTokenFromGateway(byId, { client: tx });
      });
      return { token: card.token, source: "gateway" };
    }
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    log.warn({ err: error }, "card token lookup at the gateway failed; trying the mirror");
  }
  const row = await db.cardToken.findFirst({
    where: isId ? { OR: [{ gatewayId: query }, { token: query }] } : { token: query },
  });
  if (!row) throw new AppError("NOT_FOUND", "cards.errors.notFound");
  return { token: row.token, source: "mirror" };
}
