import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { brandFromBandeiraCartao, cardBin, maskCardNumber } from "../../lib/shared/card";
import { formatDateTime, now } from "../clock";
import { paymentError } from "../http/errors";
import { registerSchema, statement, transaction } from "../store/db";
import type { TCreateCardRequest } from "./schemas";
import { randomDigits } from "./sequences";

// Card tokens (spec 4.2). The card number is never stored: only BIN, last four, brand and expiry, plus
// an HMAC of the number (key random per sandbox, kept in its database) to detect a card registered twice.
registerSchema(`
  CREATE TABLE IF NOT EXISTS card_tokens (
    client_id TEXT NOT NULL,
    id TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE,
    card_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    doc TEXT NOT NULL,
    PRIMARY KEY (client_id, id),
    UNIQUE (client_id, card_hash)
  );
  CREATE INDEX IF NOT EXISTS card_tokens_created ON card_tokens (client_id, created_at);
  CREATE TABLE IF NOT EXISTS card_hash_key (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL);
`);

export type TCardStatus = "ATV" | "INA";

export type TStoredCard = {
  id: string;
  token: string;
  bin: string;
  suffix: string;
  bandeiraCartao: string;
  /** Null for a card tokenized while paying without dataExpiracao (2.1 makes it optional). */
  dataExpiracao: string | null;
  statusCard: TCardStatus;
  customerId: string | null;
  clientId: string;
  merchantUsn: string | null;
  walletTransactionId: string | null;
  nsua: string;
  nita: string;
  dataCriacao: string;
  dataModificacao: string;
};

/** The sandbox's HMAC key, created on first use; callers hold the transaction, so two requests never race to create it. */
function hashKey(): Buffer {
  const row = statement("SELECT key FROM card_hash_key WHERE id = 1").get() as { key: string } | undefined;
  if (row) return Buffer.from(row.key, "hex");
  const key = randomBytes(32);
  statement("INSERT INTO card_hash_key (id, key) VALUES (1, ?)").run(key.toString("hex"));
  return key;
}

function cardHash(numeroCartao: string): string {
  return createHmac("sha256", hashKey()).update(numeroCartao).digest("hex");
}

const parseDoc = (row: unknown) => JSON.parse((row as { doc: string }).doc) as TStoredCard;

function saveCard(clientId: string, card: TStoredCard): void {
  statement("UPDATE card_tokens SET doc = ? WHERE client_id = ? AND id = ?").run(
    JSON.stringify(card),
    clientId,
    card.id,
  );
}

export function findCardByToken(clientId: string, token: string): TStoredCard | undefined {
  const row = statement("SELECT doc FROM card_tokens WHERE client_id = ? AND token = ?").get(clientId, token);
  return row ? parseDoc(row) : undefined;
}

function findCardByNumber(clientId: string, numeroCartao: string): TStoredCard | undefined {
  const row = statement("SELECT doc FROM card_tokens WHERE client_id = ? AND card_hash = ?").get(
    clientId,
    cardHash(numeroCartao),
  );
  return row ? parseDoc(row) : undefined;
}

export function getCardById(clientId: string, id: string): TStoredCard {
  const row = statement("SELECT doc FROM card_tokens WHERE client_id = ? AND id = ?").get(clientId, id);
  if (!row) throw paymentError(404, undefined, "Cartão não encontrado");
  return parseDoc(row);
}

export function getCardByToken(clientId: string, token: string): TStoredCard {
  const card = findCardByToken(clientId, token);
  if (!card) throw paymentError(404, undefined, "Cartão não encontrado");
  return card;
}

export function listCards(clientId: string): TStoredCard[] {
  return statement("SELECT doc FROM card_tokens WHERE client_id = ? ORDER BY created_at, rowid")
    .all(clientId)
    .map(parseDoc);
}

type TNewCard = Pick<TCreateCardRequest, "numeroCartao" | "bandeiraCartao"> & {
  dataExpiracao: string | null;
} & Partial<Pick<TCreateCardRequest, "merchantUsn" | "walletTransactionId" | "clientId">>;

function insertCard(clientId: string, input: TNewCard): TStoredCard {
  const at = now();
  const timestamp = formatDateTime(at);
  const card: TStoredCard = {
    id: randomUUID(),
    token: randomBytes(16).toString("hex"),
    bin: cardBin(input.numeroCartao),
    suffix: maskCardNumber(input.numeroCartao),
    bandeiraCartao: input.bandeiraCartao,
    dataExpiracao: input.dataExpiracao,
    // New tokens start active (the spec leaves the initial state "not shown").
    statusCard: "ATV",
    customerId: input.clientId ?? null,
    clientId: input.clientId ?? clientId,
    merchantUsn: input.merchantUsn ?? null,
    walletTransactionId: input.walletTransactionId ?? null,
    nsua: randomDigits(12),
    nita: randomDigits(20),
    dataCriacao: timestamp,
    dataModificacao: timestamp,
  };
  statement("INSERT INTO card_tokens (client_id, id, token, card_hash, created_at, doc) VALUES (?, ?, ?, ?, ?, ?)").run(
    clientId,
    card.id,
    card.token,
    cardHash(input.numeroCartao),
    at,
    JSON.stringify(card),
  );
  return card;
}

/** POST /api/v1/cards: 409 when this client already registered the same card number. */
export function createCard(clientId: string, input: TCreateCardRequest): TStoredCard {
  return transaction(() => {
    if (findCardByNumber(clientId, input.numeroCartao)) throw paymentError(409, undefined, "Cartão já cadastrado");
    return insertCard(clientId, input);
  });
}

/** Tokenize while paying: the card's existing token is reused, so paying twice with one card keeps one token. */
export function tokenizeCard(clientId: string, input: TNewCard): TStoredCard {
  return transaction(() => findCardByNumber(clientId, input.numeroCartao) ?? insertCard(clientId, input));
}

/** Enable/disable (spec 3.2): 409 when the card is already in the requested state. */
export function setCardStatus(clientId: string, token: string, status: TCardStatus): TStoredCard {
  return transaction(() => {
    const card = getCardByToken(clientId, token);
    if (card.statusCard === status) {
      throw paymentError(
        409,
        undefined,
        status === "ATV" ? "Cartão já está habilitado" : "Cartão já está desabilitado",
      );
    }
    const updated: TStoredCard = { ...card, statusCard: status, dataModificacao: formatDateTime(now()) };
    saveCard(clientId, updated);
    return updated;
  });
}

export function cardBrandName(card: Pick<TStoredCard, "bandeiraCartao">): string {
  return (brandFromBandeiraCartao(card.bandeiraCartao) ?? "desconhecida").toUpperCase();
}

// Response shapes of spec 2.5. `id` is not in the spec's Card or card result, but "read card by id" needs a way
// to learn it, so the sandbox adds it.

/** Card: items of the card list and of the lookup by token. */
export function toCard(card: TStoredCard) {
  return {
    id: card.id,
    statusCard: card.statusCard,
    bandeiraCartao: card.bandeiraCartao,
    token: card.token,
    bin: card.bin,
    suffix: card.suffix,
    dataExpiracao: card.dataExpiracao,
    customerId: card.customerId,
    dataCriacao: card.dataCriacao,
    dataModificacao: card.dataModificacao,
  };
}

/** Lookup by token wrapper: one card, so always page "0" of "1". */
export function toCardLookup(card: TStoredCard) {
  return {
    codigoResposta: "0",
    mensagemResposta: "Sucesso",
    cartoes: [toCard(card)],
    paginaAtual: "0",
    totalPaginas: "1",
    quantidade: "1",
  };
}

/** Card by id / create card result. */
export function toCardResult(card: TStoredCard) {
  return {
    id: card.id,
    code: "0",
    message: "Sucesso",
    token: card.token,
    suffix: card.suffix,
    bin: card.bin,
    statusTransaction: "CON",
    nsua: card.nsua,
    nita: card.nita,
    merchantUsn: card.merchantUsn,
    clientId: card.clientId,
    bandeiraCartao: card.bandeiraCartao,
  };
}

/** Enable/disable result. */
export function toCardStatusResult(card: TStoredCard) {
  return {
    codigo: "0",
    mensagem: card.statusCard === "ATV" ? "Cartao habilitado" : "Cartao desabilitado",
    token: card.token,
    suffix: card.suffix,
    bin: card.bin,
    statusCartao: card.statusCard,
    nsua: card.nsua,
    nita: card.nita,
    clientId: card.clientId,
    bandeiraCartao: card.bandeiraCartao,
  };
}
