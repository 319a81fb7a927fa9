import type { TGatewayRefusal } from "./errors";

const authorizedMessage = "Transacao autorizada";

// 7.4 for a payment transaction (2.2): codigo other than "0" or mensagem other than
// "Transacao autorizada" is a failure at the authorizer.
export function paymentRefusal(data: {
  codigo: string;
  mensagem: string;
  merchantAdviceCode?: string | null;
}): TGatewayRefusal | undefined {
  if (data.codigo === "0" && data.mensagem === authorizedMessage) return undefined;
  return { codigo: data.codigo, mensagem: data.mensagem, merchantAdviceCode: data.merchantAdviceCode ?? null };
}

// 7.4 for results whose message is free text (cancellation 2.4, enable/disable, card result):
// only the code decides.
export function codeRefusal(data: {
  codigo?: string;
  code?: string;
  mensagem?: string | null;
  message?: string | null;
}): TGatewayRefusal | undefined {
  const codigo = data.codigo ?? data.code;
  if (codigo === undefined || codigo === "0") return undefined;
  return { codigo, mensagem: data.mensagem ?? data.message ?? null, merchantAdviceCode: null };
}
