import { z } from "zod";

// GET /api/search?q=…: anything shorter than two characters would match half the mirror.
export const searchQueryMinLength = 2;
export const searchQueryMaxLength = 100;

export const ZSearchQuery = z.object({
  q: z
    .string({ error: "searchQueryRequired" })
    .trim()
    .min(searchQueryMinLength, { error: "searchQueryTooShort" })
    .max(searchQueryMaxLength, { error: "searchQueryTooLong" }),
});

export type TSearchTerms = {
  // As typed (trimmed): ids (txid, endToEndId, uuid, order id, token) are compared exactly.
  text: string;
  // Set when the query is digits and document punctuation only: "123.456.789-09" → "12345678909".
  digits: string | null;
  // A name prefix, LIKE-escaped, when the query has a letter; folded (case, accents) in SQL by search_fold().
  namePrefix: string | null;
};

const digitsAndPunctuation = /^[\d.\-/\s]+$/;

/** `%`, `_` and `\` match literally in a LIKE pattern (PostgreSQL's default escape is `\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export function toSearchTerms(query: string): TSearchTerms {
  const text = query.trim();
  const digits = digitsAndPunctuation.test(text) ? text.replace(/\D/g, "") : "";
  return {
    text,
    digits: digits || null,
    namePrefix: /\p{L}/u.test(text) ? escapeLike(text.replace(/\s+/g, " ")) : null,
  };
}

export function isDocumentDigits(digits: string | null): digits is string {
  return digits !== null && (digits.length === 11 || digits.length === 14);
}
