// A `pay.refusal` key chosen from the authorizer's answer (sandbox/README.md); its own words (terse Portuguese
// without accents) are never shown raw.

export const refusalMessageKeys = [
  "insufficientFunds",
  "expiredCard",
  "checkCardData",
  "tryLater",
  "declined",
] as const;
export type TRefusalMessageKey = (typeof refusalMessageKeys)[number];

export type TCardRefusal = { codigo: string | null; mensagem: string | null; merchantAdviceCode: string | null };

export function refusalMessageKey(refusal: TCardRefusal): TRefusalMessageKey {
  const text = (refusal.mensagem ?? "").toLowerCase();
  // The specific reasons first: they tell the payer what to change.
  if (refusal.codigo === "51" || text.includes("saldo")) return "insufficientFunds";
  if (refusal.codigo === "54" || text.includes("vencido")) return "expiredCard";
  switch (refusal.merchantAdviceCode) {
    case "01":
      return "checkCardData";
    case "02":
      return "tryLater";
    default:
      return "declined";
  }
}
