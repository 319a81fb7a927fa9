import { useTranslations } from "next-intl";
import type { ActionError } from "./define-action";

// Field errors carry translation keys from `users.errors` (see lib/users/user-schemas.ts); the
// code's generic text covers anything else.
export function useActionErrorText() {
  const t = useTranslations();
  const fieldText = (key: string | undefined) => (key && t.has(`users.errors.${key}`) ? t(`users.errors.${key}`) : undefined);
  return {
    fieldText,
    formText: (error: ActionError) =>
      Object.values(error.fieldErrors ?? {}).map(fieldText).find(Boolean) ?? t(`errors.codes.${error.code}`),
  };
}
