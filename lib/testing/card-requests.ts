// Tests only: a card payment request the sandbox approves (its approved Visa test card, one installment).
import { randomUUID } from "node:crypto";
import type { TCardPaymentRequest } from "@/lib/gateway/schemas/payment";

export function approvedCardRequest(valor: number): TCardPaymentRequest {
  return {
    identificacaoPagamento: randomUUID(),
    numeroParcelas: 1,
    tipoParcelamento: "3",
    bandeiraCartao: "1",
    valor,
    numeroCartao: "4111111111111111",
    dataExpiracao: "12/30",
  };
}
