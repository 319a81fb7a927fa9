import "server-only";
import { withTransaction } from "@/lib/db/client";
import type { TMirrorClient, TMirrorOutcome } from "@/lib/db/mirror-write";
import type { TCard, TCardResult, TCardStatusResult } from "@/lib/gateway/schemas/card";
import type { CardToken, Prisma } from "@/lib/generated/prisma/client";
import { upsertMirrorRow } from "@/lib/mirror/upsert";
import { parseGatewayDateTime } from "@/lib/shared/gateway-date";

// Three partial answers describe a token (docs/card-tokens.md); a write keeps what an answer leaves out, never nulls it.

export type TCardTokenSnapshot = TCard | TCardResult | TCardStatusResult;

export type TUpsertCardTokenOptions = {
  client?: TMirrorClient;
  createdById?: string | null;
  now?: Date;
  /** What the caller sent and the answer does not repeat: a create result carries no expiry, customer or state. */
  known?: { expiry?: string; customerId?: string | null; status?: string };
};

type TTokenFields = {
  gatewayId?: string;
  status?: string;
  brandCode?: string;
  bin?: string;
  lastFour?: string;
  expiry?: string;
  customerId?: string;
  clientId?: string;
  createdAtGateway?: Date;
  modifiedAtGateway?: Date;
};

const requiredForCreate = ["status", "brandCode", "bin", "lastFour", "expiry"] as const;

function isCard(snapshot: TCardTokenSnapshot): snapshot is TCard {
  return "statusCard" in snapshot;
}

function isStatusResult(snapshot: TCardTokenSnapshot): snapshot is TCardStatusResult {
  return "statusCartao" in snapshot;
}

function withoutEmpty<T extends Record<string, unknown>>(fields: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined && value !== ""),
  ) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;
}

function snapshotFields(snapshot: TCardTokenSnapshot, known: TUpsertCardTokenOptions["known"] = {}): TTokenFields {
  const fromCaller = { expiry: known.expiry, customerId: known.customerId, status: known.status };
  if (isCard(snapshot)) {
    return withoutEmpty({
      ...fromCaller,
      gatewayId: snapshot.id,
      status: snapshot.statusCard,
      brandCode: snapshot.bandeiraCartao,
      bin: snapshot.bin,
      lastFour: snapshot.suffix,
      expiry: snapshot.dataExpiracao,
      customerId: snapshot.customerId ?? known.customerId,
      createdAtGateway: parseGatewayDateTime(snapshot.dataCriacao),
      modifiedAtGateway: parseGatewayDateTime(snapshot.dataModificacao),
    });
  }
  if (isStatusResult(snapshot)) {
    return withoutEmpty({
      ...fromCaller,
      status: snapshot.statusCartao,
      brandCode: snapshot.bandeiraCartao,
      bin: snapshot.bin,
      lastFour: snapshot.suffix,
      clientId: snapshot.clientId,
    });
  }
  // statusTransaction is the tokenization's outcome (3.1), not the token's state (3.2).
  return withoutEmpty({
    ...fromCaller,
    gatewayId: snapshot.id,
    brandCode: snapshot.bandeiraCartao,
    bin: snapshot.bin,
    lastFour: snapshot.suffix,
    clientId: snapshot.clientId,
  });
}

function rawOf(snapshot: TCardTokenSnapshot, previous: Prisma.JsonValue | undefined): Prisma.InputJsonObject {
  const base = previous && typeof previous === "object" && !Array.isArray(previous) ? previous : {};
  return { ...base, ...withoutEmpty(snapshot as Record<string, unknown>) } as Prisma.InputJsonObject;
}

// A Card older than the row (by dataModificacao) is a stale read: a list page fetched before an enable/disable.
function isStale(existing: CardToken, fields: TTokenFields): boolean {
  return (
    fields.modifiedAtGateway !== undefined &&
    existing.modifiedAtGateway !== null &&
    fields.modifiedAtGateway.getTime() < existing.modifiedAtGateway.getTime()
  );
}

async function writeCardToken(
  tx: TMirrorClient,
  snapshot: TCardTokenSnapshot,
  options: TUpsertCardTokenOptions,
): Promise<{ outcome: TMirrorOutcome; card: CardToken } | null> {
  const syncedAt = options.now ?? new Date();
  const fields = snapshotFields(snapshot, options.known);
  const where = { token: snapshot.token };
  const written = await upsertMirrorRow(tx, {
    lockKey: `card_token:${snapshot.token}`,
    syncedAt,
    find: () => tx.cardToken.findUnique({ where }),
    // A partial answer (enable/disable, create without what was sent) cannot start a row: read the card first.
    create: async () =>
      requiredForCreate.some((name) => fields[name] === undefined)
        ? null
        : tx.cardToken.create({
            data: {
              token: snapshot.token,
              ...(fields as TTokenFields & Record<(typeof requiredForCreate)[number], string>),
              raw: rawOf(snapshot, undefined),
              syncedAt,
              createdById: options.createdById ?? null,
            },
          }),
    move: (existing) => (isStale(existing, fields) ? "stale" : "accept"),
    data: (existing) => ({ ...fields, raw: rawOf(snapshot, existing.raw) }),
    update: (data, existing) =>
      tx.cardToken.update({
        where,
        data: { ...data, createdById: existing.createdById ?? options.createdById ?? undefined },
      }),
    publish: [{ kind: "card_token", id: snapshot.token }],
  });
  return written && { outcome: written.outcome, card: written.row };
}

/** Null when the token is not mirrored yet and the answer lacks what a row needs: pass it in `known`, or write a Card first. */
export async function upsertCardTokenFromGateway(
  card: TCardTokenSnapshot,
  options: TUpsertCardTokenOptions = {},
): Promise<{ outcome: TMirrorOutcome; card: CardToken } | null> {
  return withTransaction(options.client, (tx) => writeCardToken(tx, card, options));
}
