import { useTranslations } from "next-intl";

import type { TActionError } from "@/lib/actions/define-action";

/**
 * Text of a card payment action's failure: the message is a key under `cardPayments.errors` (lib/payments/cancel.ts);
 * a refused cancellation also carries the authorizer's codigo and mensagem as sent. Otherwise the code's generic text.
 */
export function useCardPaymentErrorText() {
  const t = useTranslations();
  return (error: TActionError): string => {
    const key = `cardPayments.errors.${error.message}`;
    if (!t.has(key)) return t(`errors.codes.${error.code}`);
    return t(key, { codigo: error.fieldErrors?.codigo ?? "—", mensagem: error.fieldErrors?.mensagem ?? "" });
  };
}
