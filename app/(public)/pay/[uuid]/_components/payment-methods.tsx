"use client";

import { CreditCardIcon, QrCodeIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";

import { cn } from "@/lib/utils";

import { CardForm, type TInstallmentOption } from "./card-form";
import { PixPanel } from "./pix-panel";

type Method = "card" | "pix";

type PaymentMethodsProps = {
  linkPaymentUuid: string;
  amountLabel: string;
  installmentOptions: TInstallmentOption[];
  acceptsCard: boolean;
  acceptsPix: boolean;
  cardLockedUntil: string | null;
};

/** Step 2: the accepted methods as a radio group (when there are two), then the chosen one's form. */
export function PaymentMethods({
  linkPaymentUuid,
  amountLabel,
  installmentOptions,
  acceptsCard,
  acceptsPix,
  cardLockedUntil,
}: PaymentMethodsProps) {
  const t = useTranslations("pay.methods");
  const [method, setMethod] = useState<Method>(acceptsCard ? "card" : "pix");
  const options = [
    ...(acceptsCard ? [{ value: "card" as const, label: t("card"), Icon: CreditCardIcon }] : []),
    ...(acceptsPix ? [{ value: "pix" as const, label: t("pix"), Icon: QrCodeIcon }] : []),
  ];

  return (
    <div className="grid gap-4">
      {options.length > 1 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">{t("legend")}</legend>
          <div className="grid grid-cols-2 gap-2">
            {options.map(({ value, label, Icon }) => (
              <label
                key={value}
                className={cn(
                  "flex h-12 cursor-pointer items-center justify-center gap-2 rounded-md border bg-background text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring",
                  method === value && "border-primary bg-accent ring-1 ring-primary",
                )}
              >
                <input
                  type="radio"
                  name="payment-method"
                  value={value}
                  checked={method === value}
                  onChange={() => setMethod(value)}
                  className="sr-only"
                />
                <Icon className="size-4" aria-hidden="true" />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <h2 className="text-sm font-medium">{t("only", { method: options[0]?.label ?? "" })}</h2>
      )}
      {method === "card" ? (
        <CardForm
          linkPaymentUuid={linkPaymentUuid}
          amountLabel={amountLabel}
          installmentOptions={installmentOptions}
          lockedUntil={cardLockedUntil}
        />
      ) : (
        <PixPanel linkPaymentUuid={linkPaymentUuid} />
      )}
    </div>
  );
}
