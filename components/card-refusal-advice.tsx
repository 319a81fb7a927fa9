import { useTranslations } from "next-intl";

import { adviceMessageKeys, merchantAdviceOf } from "@/lib/card-payments/advice";
import { cn } from "@/lib/utils";

type CardRefusalAdviceProps = {
  /** The authorizer's answer as sent: codigo and mensagem. */
  codigo: string;
  mensagem: string | null;
  merchantAdviceCode: string | null;
  className?: string;
};

/**
 * Why a card payment was refused and what the merchant should do next (merchantAdviceCode, lib/card-payments/advice.ts).
 * Shared by the card payment page and the virtual terminal's result.
 */
export function CardRefusalAdvice({ codigo, mensagem, merchantAdviceCode, className }: CardRefusalAdviceProps) {
  const t = useTranslations("cardPayments.advice");
  const advice = merchantAdviceOf(merchantAdviceCode);
  const keys = advice ? adviceMessageKeys(advice.kind) : null;
  return (
    <div role="note" className={cn("grid gap-2 rounded-md border border-destructive/40 p-4 text-sm", className)}>
      <p>
        <span className="font-medium">{t("refusedBy")}</span> <span className="font-mono">{codigo}</span>
        {mensagem ? ` — ${mensagem}` : null}
      </p>
      {advice && keys ? (
        <div data-testid="merchant-advice" data-advice={advice.kind}>
          <p className="font-medium">{t(keys.title, { code: advice.code })}</p>
          <p className="text-muted-foreground">{t(keys.description, { code: advice.code })}</p>
        </div>
      ) : (
        <p className="text-muted-foreground">{t("none")}</p>
      )}
    </div>
  );
}
