import { useTranslations } from "next-intl";

import type { TActionError } from "@/lib/actions/define-action";

/**
 * Text of a card payment action's failure: the message is a catalog key (lib/card-payments/cancel.ts); a refused
 * cancellation also carries the authorizer's codigo and mensagem as sent. Otherwise the code's generic text.
 */
export function useCardPaymentErrorText() {
  const t = useTranslations();
  return (error: TActionError): string => {
    if (!t.has(error.messageKey)) return t(`errors.codes.${error.code}`);
    return t(error.messageKey, {
      codigo: error.fieldErrors?.codigo ?? "—",
      mensagem: error.fieldErrors?.mensagem ?? "",
      ...error.params,
    });
  };
}
