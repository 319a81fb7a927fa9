// Spec 2.2 and 7.4: a card payment is approved only when `codigo` is "0" AND `mensagem` is exactly
// "Transacao autorizada"; any other pair is a refusal, whatever `status` says. The one predicate for the mirror,
// the gateway client, the cancel and the sandbox (which must agree with the app on what an approval is).

export const authorizedCardPaymentMessage = "Transacao autorizada";
const approvedCardResponseCode = "0";

export function isCardPaymentApproved(answer: { codigo: string; mensagem: string | null | undefined }): boolean {
  return answer.codigo === approvedCardResponseCode && answer.mensagem === authorizedCardPaymentMessage;
}
