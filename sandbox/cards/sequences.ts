import { randomInt } from "node:crypto";
import { nextSequence, registerSchema, statement } from "../store/db";

// Numeric client ids for the card and link resources. Call inside a transaction so two requests
// never draw the same value (sequential numbers come from store/db.ts's nextSequence).
registerSchema(`
  CREATE TABLE IF NOT EXISTS card_client_numbers (client_id TEXT PRIMARY KEY, number INTEGER NOT NULL);
`);

/** A stable integer for a client certificate's CN: payment links expose the client as an integer (clienteId). */
export function clientNumber(clientId: string): number {
  const existing = statement("SELECT number FROM card_client_numbers WHERE client_id = ?").get(clientId) as
    | { number: number }
    | undefined;
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
