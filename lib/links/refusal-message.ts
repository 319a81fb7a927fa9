// A `pay.refusal` key chosen from the authorizer's answer (sandbox/README.md); its own words (terse Portuguese
// without accents) are never shown raw. One message for every refusal: telling "insufficient funds" from
// "expired card" would tell a card tester which stolen cards are live. Only an unreachable issuer (91, 96), which
// says nothing of the card, gets "try later".

const refusalMessageKeys = ["tryLater", "declined"] as const;
export type TRefusalMessageKey = (typeof refusalMessageKeys)[number];

export type TCardRefusal = { codigo: string | null; mensagem: string | null; merchantAdviceCode: string | null };

const issuerUnavailableCodes = new Set(["91", "96"]);

export function refusalMessageKey(refusal: TCardRefusal): TRefusalMessageKey {
  return refusal.codigo !== null && issuerUnavailableCodes.has(refusal.codigo) ? "tryLater" : "declined";
}
