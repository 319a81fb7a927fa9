import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";

// Shared by the card, payment and payment-link contract tests.

export const cards = {
  visa: "4111111111111111",
  mastercard: "5555555555554444",
  refused: "4000000000000002",
  insufficientFunds: "4000000000009995",
  expired: "4000000000000069",
  authorizerError: "4000000000000119",
  amex: "378282246310005",
  elo: "6362970000457013",
} as const;

/** A card payment request (spec 2.1) paying `valor` with the Visa test card in one credit payment. */
export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identificacaoPagamento: `order-${Math.random().toString(36).slice(2, 10)}`,
    numeroParcelas: 1,
    tipoParcelamento: "3",
    bandeiraCartao: "1",
    valor: 100,
    dataExpiracao: "12/39",
    codigoSeguranca: "123",
    numeroCartao: cards.visa,
    ...overrides,
  };
}

/** Every file under `dir` (SQLite database, WAL, keys...) that contains `needle` as text. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = await readFile(file);
    if (content.includes(needle) || content.includes(Buffer.from(needle, "utf16le"))) hits.push(file);
  }
  return hits;
}

/** The 7.2 ErrorResponse: code, message, details [{campo, erro}], traceId, UTC timestamp. */
export function expectPaymentError(body: unknown, code: string): void {
  expect(body).toEqual({
    code,
    message: expect.any(String),
    details: expect.any(Array),
    traceId: expect.any(String),
    timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
  });
}

/** The fields named in the details of a 7.2 validation error. */
export function fieldsOf(body: { details: { campo: string }[] }): string[] {
  return body.details.map((detail) => detail.campo);
}
