import { useTranslations } from "next-intl";

import type { TActionError } from "@/lib/actions/define-action";
import type { TAppErrorCode } from "@/lib/errors";

type MessagesByCode = Partial<Record<TAppErrorCode, string>>;

/**
 * Text of a Pix action's failure: field errors are keys under `pix.errors` (lib/pix/schemas.ts), the message a
 * catalog key; a screen may word a code for its own context ("this charge can no longer be cancelled" rather
 * than a generic conflict); otherwise the code's generic text.
 */
export function usePixErrorText() {
  const t = useTranslations();
  const keyText = (key: string | undefined) => (key && t.has(`pix.errors.${key}`) ? t(`pix.errors.${key}`) : undefined);
  const fieldText = (fieldErrors: Record<string, string> | undefined, field: string) => keyText(fieldErrors?.[field]);
  const formText = (error: TActionError, byCode: MessagesByCode = {}) =>
    Object.values(error.fieldErrors ?? {})
      .map(keyText)
      .find(Boolean) ??
    (t.has(error.messageKey) ? t(error.messageKey, error.params) : undefined) ??
    byCode[error.code] ??
    t(`errors.codes.${error.code}`);
  return { fieldText, formText };
}
