// No server-only imports: forms use it too. "form" holds an issue of the whole input.
export type TFieldErrors = Record<string, string>;

export function zodIssuesToFieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): TFieldErrors {
  const fieldErrors: TFieldErrors = {};
  for (const issue of issues) fieldErrors[issue.path.map(String).join(".") || "form"] ??= issue.message;
  return fieldErrors;
}
