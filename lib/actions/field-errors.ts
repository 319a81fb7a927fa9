// Shared by server actions and forms (no server-only imports): the first issue of each field, under its dotted path
// ("form" for an issue of the whole input). Zod messages are catalog keys of the form's namespace.
export type TFieldErrors = Record<string, string>;

export function zodIssuesToFieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): TFieldErrors {
  const fieldErrors: TFieldErrors = {};
  for (const issue of issues) fieldErrors[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return fieldErrors;
}
