import { isCardPaymentApproved } from "@/lib/shared/card-approval";
import type { TGatewayRefusal } from "./errors";

// 7.4 for a payment (2.2): a codigo other than "0" or a mensagem other than "Transacao autorizada" is a refusal.
export function paymentRefusal(data: {
  codigo: string;
  mensagem: string;
  merchantAdviceCode?: string | null;
}): TGatewayRefusal | undefined {
  if (isCardPaymentApproved(data)) return undefined;
  return { codigo: data.codigo, mensagem: data.mensagem, merchantAdviceCode: data.merchantAdviceCode ?? null };
}

// 7.4 where the message is free text (cancellation, card result, enable/disable): only the code decides.
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
