import { useTranslations } from "next-intl";
import type { TActionError } from "./define-action";

// Field errors (and maybe the message) are `<namespace>.errors` keys; the code's generic text covers the rest.
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
