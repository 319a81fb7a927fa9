import { useTranslations } from "next-intl";
import type { TActionError } from "./define-action";

// Field errors carry translation keys from `<namespace>.errors` (see lib/users/user-schemas.ts,
// lib/webhooks/admin-schemas.ts); so may an error's message. The code's generic text covers
// anything else.
export function useActionErrorText(namespace = "users") {
  const t = useTranslations();
  const fieldText = (key: string | undefined) =>
    key && t.has(`${namespace}.errors.${key}`) ? t(`${namespace}.errors.${key}`) : undefined;
  return {
    fieldText,
    formText: (error: TActionError) =>
      Object.values(error.fieldErrors ?? {})
        .map(fieldText)
        .find(Boolean) ??
      fieldText(error.message) ??
      t(`errors.codes.${error.code}`),
  };
}
