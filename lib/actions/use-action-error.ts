import { useTranslations } from "next-intl";
import type { TActionError } from "./define-action";

// The code's generic text covers a message key this build does not know.
export function useActionErrorText(namespace = "users") {
  const t = useTranslations();
  const fieldText = (key: string | undefined) =>
    key && t.has(`${namespace}.errors.${key}`) ? t(`${namespace}.errors.${key}`) : undefined;
  const messageText = (error: TActionError) =>
    t.has(error.messageKey) ? t(error.messageKey, error.params) : undefined;
  return {
    fieldText,
    messageText,
    formText: (error: TActionError) =>
      Object.values(error.fieldErrors ?? {})
        .map(fieldText)
        .find(Boolean) ??
      messageText(error) ??
      t(`errors.codes.${error.code}`),
  };
}
