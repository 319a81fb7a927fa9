import { cardBin, isCardExpiryValid, maskCardNumber } from "../../lib/shared/card";

// The sandbox authorizer. Outcomes are keyed by BIN + last four, the only card data the sandbox keeps,
// so a payment by token gets the same outcome as one with the full number. Documented in sandbox/README.md.

type TRefusal = {
  codigo: string;
  mensagem: string;
  mensagemAutorizador: string;
  /** Mastercard-style advice: 01 update card data, 02 try again later, 03 do not try again. */
  merchantAdviceCode: string;
};

// `mensagem` on an authorized decision overrides "Transacao autorizada": codigo "0" with another message is a
// refusal by spec 7.4, which the app must recognise even with status CON and an authorization number.
export type TAuthorizerDecision =
  | { kind: "authorized"; mensagem?: string }
  | ({ kind: "refused" } & TRefusal)
  | { kind: "error" };

type TTestCard = { number: string; decision: TAuthorizerDecision };

const refusedExpired: TRefusal = {
  codigo: "54",
  mensagem: "Cartao vencido",
  mensagemAutorizador: "CARTAO VENCIDO",
  merchantAdviceCode: "01",
};

export const TEST_CARDS: readonly TTestCard[] = [
  { number: "4111111111111111", decision: { kind: "authorized" } },
  { number: "5555555555554444", decision: { kind: "authorized" } },
  {
    number: "4000000000000002",
    decision: {
      kind: "refused",
      codigo: "05",
      mensagem: "Transacao negada",
      mensagemAutorizador: "NAO AUTORIZADA",
      merchantAdviceCode: "03",
    },
  },
  {
    number: "4000000000009995",
    decision: {
      kind: "refused",
      codigo: "51",
      mensagem: "Saldo insuficiente",
      mensagemAutorizador: "SALDO INSUFICIENTE",
      merchantAdviceCode: "02",
    },
  },
  { number: "4000000000000069", decision: { kind: "refused", ...refusedExpired } },
  { number: "4000000000000119", decision: { kind: "error" } },
  { number: "4000000000000077", decision: { kind: "authorized", mensagem: "Transacao pendente de confirmacao" } },
];

const decisionsByBinAndSuffix = new Map(
  TEST_CARDS.map((card) => [`${cardBin(card.number)}:${maskCardNumber(card.number)}`, card.decision]),
);

export type TCardFacts = { bin: string; suffix: string; dataExpiracao?: string | undefined };

/** A card whose expiry month has passed is refused; then test cards decide by BIN + suffix; any other card is authorized. */
export function decideAuthorization(card: TCardFacts, nowMs: number): TAuthorizerDecision {
  if (card.dataExpiracao !== undefined && !isCardExpiryValid(card.dataExpiracao, new Date(nowMs))) {
    return { kind: "refused", ...refusedExpired };
  }
  return decisionsByBinAndSuffix.get(`${card.bin}:${card.suffix}`) ?? { kind: "authorized" };
}
