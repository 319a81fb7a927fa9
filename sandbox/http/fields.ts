import { z } from "zod";

// Field builders whose messages name the real problem: a missing field is "obrigatório", a value of the wrong type
// says which type, an empty text says so, and an over-long one says "muito longo" with its limit.

type TTypeName = "texto" | "número" | "inteiro" | "booleano" | "lista" | "objeto";

/** The error of a zod type check: "obrigatório" when absent, otherwise the type the field must have. */
export function typeError(expected: TTypeName): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? "obrigatório" : `deve ser ${expected}`);
}

export const tooLong = (max: number) => `muito longo: máximo de ${max} caracteres`;

/** A required text (trimmed, not empty). Without `max` its length is bounded only by the 1 MiB request body. */
export function requiredText(max?: number) {
  const text = z
    .string({ error: typeError("texto") })
    .trim()
    .min(1, { error: "não pode ser vazio" });
  return max === undefined ? text : text.max(max, { error: tooLong(max) });
}

/** An optional text; `max` only where the sandbox README documents a limit. */
export function optionalText(max?: number) {
  const text = z.string({ error: typeError("texto") });
  return (max === undefined ? text : text.max(max, { error: tooLong(max) })).optional();
}

/** An integer field: wrong type, fraction and range each with its own message. */
export function integer(options: { min?: number; max?: number; what?: string } = {}) {
  let schema = z.number({ error: typeError("inteiro") }).int({ error: "deve ser inteiro (sem casas decimais)" });
  const unit = options.what ? ` ${options.what}` : "";
  if (options.min !== undefined) schema = schema.min(options.min, { error: `mínimo ${options.min}${unit}` });
  if (options.max !== undefined) schema = schema.max(options.max, { error: `máximo ${options.max}${unit}` });
  return schema;
}
