import { useTranslations } from "next-intl";
import { useState } from "react";

import { CardExpiryInput, CardNumberInput, CardSecurityCodeInput } from "@/components/card-fields/card-fields";
import { Checkbox } from "@/components/ui/checkbox";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { brandFromBandeiraCartao, CARD_BRAND_NAMES, type TCardBrand } from "@/lib/shared/card";

/** A saved card the picker offers: never more than the token, brand, last four and expiry. */
export type TSavedCardOption = { token: string; brandCode: string; lastFour: string; expiry: string; status: string };

export type TCardMode = "typed" | "saved";

function brandName(code: string): string {
  const brand = brandFromBandeiraCartao(code);
  return brand ? CARD_BRAND_NAMES[brand] : code;
}

type TerminalCardFieldsetProps = {
  savedCards: TSavedCardOption[];
  canSaveCards: boolean;
  cardMode: TCardMode;
  onCardModeChange: (mode: TCardMode) => void;
  token: string;
  onTokenChange: (token: string) => void;
  saveCard: boolean;
  onSaveCardChange: (saveCard: boolean) => void;
  errorFor: (field: string) => string | undefined;
};

/** The card to charge: typed (number, expiry, security code in uncontrolled inputs) or a saved card's token. */
export function TerminalCardFieldset({
  savedCards,
  canSaveCards,
  cardMode,
  onCardModeChange,
  token,
  onTokenChange,
  saveCard,
  onSaveCardChange,
  errorFor,
}: TerminalCardFieldsetProps) {
  const t = useTranslations("cardPayments.terminal");
  const [brand, setBrand] = useState<TCardBrand | null>(null);
  const savedCard = savedCards.find((card) => card.token === token.trim()) ?? null;
  return (
    <fieldset className="grid gap-4 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">{t("card")}</legend>
      <div className="flex flex-wrap gap-4 text-sm" role="radiogroup" aria-label={t("cardSource")}>
        {/* Saved cards are charged by admins only (the server refuses STAFF too). */}
        {(canSaveCards ? (["typed", "saved"] as const) : (["typed"] as const)).map((mode) => (
          <label key={mode} className="flex cursor-pointer items-center gap-2">
            <input
              type="radio"
              name="cardMode"
              value={mode}
              checked={cardMode === mode}
              onChange={() => onCardModeChange(mode)}
              className="size-4 accent-primary"
            />
            {t(`cardModes.${mode}`)}
          </label>
        ))}
      </div>

      {cardMode === "typed" ? (
        <>
          <Field
            label={t("cardNumber")}
            required
            error={errorFor("card.number")}
            description={brand ? t("brandDetected", { brand: CARD_BRAND_NAMES[brand] }) : undefined}
          >
            <CardNumberInput name="cardNumber" onBrandChange={setBrand} />
          </Field>
          <div className="grid grid-cols-2 gap-4">
            <Field label={t("expiry")} required error={errorFor("card.expiry")}>
              <CardExpiryInput name="expiry" placeholder={t("expiryPlaceholder")} />
            </Field>
            <Field label={t("securityCode")} required error={errorFor("card.securityCode")}>
              <CardSecurityCodeInput name="securityCode" />
            </Field>
          </div>
          {canSaveCards ? (
            <div className="flex items-start gap-2">
              <Checkbox
                id="saveCard"
                checked={saveCard}
                onCheckedChange={(checked) => onSaveCardChange(checked === true)}
                className="mt-0.5"
              />
              <div className="grid gap-1">
                <Label htmlFor="saveCard">{t("saveCard")}</Label>
                <p className="text-xs text-muted-foreground">{t("saveCardHint")}</p>
                {errorFor("card.saveCard") ? <FormError>{errorFor("card.saveCard")}</FormError> : null}
              </div>
            </div>
          ) : null}
        </>
      ) : (
        <Field
          label={t("token")}
          required
          error={errorFor("card.token")}
          description={
            savedCard
              ? t("savedCardDescription", {
                  brand: brandName(savedCard.brandCode),
                  lastFour: savedCard.lastFour,
                  expiry: savedCard.expiry,
                })
              : token.trim()
                ? t("tokenNotMirrored")
                : savedCards.length > 0
                  ? t("tokenHint")
                  : t("noSavedCards")
          }
        >
          <Input
            name="token"
            list="terminal-saved-cards"
            value={token}
            onChange={(event) => onTokenChange(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            className="font-mono"
          />
        </Field>
      )}
      <datalist id="terminal-saved-cards">
        {savedCards.map((card) => (
          <option key={card.token} value={card.token}>
            {`${brandName(card.brandCode)} •••• ${card.lastFour} · ${card.expiry}`}
          </option>
        ))}
      </datalist>
    </fieldset>
  );
}
