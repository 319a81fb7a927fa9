// Spec 2.2 and 7.4: approved only when `codigo` is "0" AND `mensagem` is exactly "Transacao autorizada", whatever
// `status` says. The one predicate, so the mirror, the gateway client, the cancel and the sandbox agree.

export const authorizedCardPaymentMessage = "Transacao autorizada";
const approvedCardResponseCode = "0";

export function isCardPaymentApproved(answer: { codigo: string; mensagem: string | null | undefined }): boolean {
  return answer.codigo === approvedCardResponseCode && answer.mensagem === authorizedCardPaymentMessage;
}
