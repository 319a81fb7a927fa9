import { randomInt } from "node:crypto";
import { registerSchema, statement } from "../store/db";

// Gateway sequential numbers (USNs, link ids, numeric client ids). Call inside a transaction so two
// requests never draw the same value.
registerSchema(`
  CREATE TABLE IF NOT EXISTS card_sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS card_client_numbers (client_id TEXT PRIMARY KEY, number INTEGER NOT NULL);
`);

export function nextSequence(name: string): number {
  const row = statement(
    "INSERT INTO card_sequences (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value",
  ).get(name) as { value: number };
  return row.value;
}

/** A stable integer for a client certificate's CN: payment links expose the client as an integer (clienteId). */
export function clientNumber(clientId: string): number {
  const existing = statement("SELECT number FROM card_client_numbers WHERE client_id = ?").get(clientId) as { number: number } | undefined;
  if (existing) return existing.number;
  const number = nextSequence("clientNumber");
  statement("INSERT INTO card_client_numbers (client_id, number) VALUES (?, ?)").run(clientId, number);
  return number;
}

/** Random decimal digits, for acquirer identifiers (NIT, NSU, authorization numbers) that carry no meaning here. */
export function randomDigits(length: number): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < length) digits += String(randomInt(0, 10));
  return digits;
}
