// One `pay.refusal` message for every refusal, never the authorizer's raw words: telling "insufficient funds" from
// "expired card" would tell a card tester which stolen cards are live. Only 91 and 96 (issuer unreachable) say "try later".

const refusalMessageKeys = ["tryLater", "declined"] as const;
export type TRefusalMessageKey = (typeof refusalMessageKeys)[number];

export type TCardRefusal = { codigo: string | null; mensagem: string | null; merchantAdviceCode: string | null };

const issuerUnavailableCodes = new Set(["91", "96"]);

export function refusalMessageKey(refusal: TCardRefusal): TRefusalMessageKey {
  return refusal.codigo !== null && issuerUnavailableCodes.has(refusal.codigo) ? "tryLater" : "declined";
}
