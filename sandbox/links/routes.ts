import { ZCardPaymentRequest } from "../cards/schemas";
import { parseInput, paymentError, renderError } from "../http/errors";
import type { Router } from "../http/router";
import {
  cancelLink,
  confirmLinkPayment,
  createLink,
  expireLink,
  getLink,
  listLinks,
  setLinkVerificationCode,
  verifyLink,
} from "./links";
import { queryToObject, ZCreateLinkRequest, ZListLinksQuery, ZSetVerificationCode } from "./schemas";

/** Payment links (spec 4.3) and their control route; errors use the 7.2 ErrorResponse. */
export function registerLinkRoutes(router: Router): void {
  // POST /api/v1/link-payment – create a link (200 with status CREATED, as the spec says)
  router.add("POST", "/api/v1/link-payment", (ctx) => ({
    status: 200,
    body: createLink(ctx.clientId, parseInput(ZCreateLinkRequest, ctx.body)),
  }));

  // GET /api/v1/link-payment – plain array of the client's links created between startDate and endDate
  router.add("GET", "/api/v1/link-payment", (ctx) => ({
    status: 200,
    body: listLinks(ctx.clientId, parseInput(ZListLinksQuery, queryToObject(ctx.query))),
  }));

  // GET /api/v1/link-payment/check/{uuid}/{verificationCode} – the link, when the code is its tokenVerificacao
  router.add("GET", "/api/v1/link-payment/check/:uuid/:verificationCode", (ctx) => ({
    status: 200,
    body: verifyLink(ctx.clientId, ctx.params.uuid ?? "", ctx.params.verificationCode ?? ""),
  }));

  // PUT /api/v1/link-payment/confirm-payment/{uuid} – pay the link by card: 200 with the paid link;
  // a refused card is 422 with the authorizer's answer beside the 7.2 fields
  router.add("PUT", "/api/v1/link-payment/confirm-payment/:uuid", (ctx) => {
    const outcome = confirmLinkPayment(ctx.clientId, ctx.params.uuid ?? "", parseInput(ZCardPaymentRequest, ctx.body));
    if (outcome.kind === "paid") return { status: 200, body: outcome.link };
    const { payment } = outcome;
    const error = paymentError(422, "PAYMENT_REFUSED", `Pagamento recusado: ${payment.mensagem}`);
    return {
      status: 422,
      body: {
        ...(renderError(error, "payment", ctx.transactionId) as object),
        codigo: payment.codigo,
        mensagem: payment.mensagem,
        merchantAdviceCode: payment.merchantAdviceCode,
        identificadorTransacao: payment.id,
      },
    };
  });

  // GET /api/v1/link-payment/{uuid} – one link
  router.add("GET", "/api/v1/link-payment/:uuid", (ctx) => ({
    status: 200,
    body: getLink(ctx.clientId, ctx.params.uuid ?? ""),
  }));

  // PUT /api/v1/link-payment/{uuid}/cancel – 200 with the link in status 4 CANCELLED
  router.add("PUT", "/api/v1/link-payment/:uuid/cancel", (ctx) => ({
    status: 200,
    body: cancelLink(ctx.clientId, ctx.params.uuid ?? ""),
  }));

  // POST /sandbox/v1/payment-links/{uuid}/verification-code – control API: set the link's tokenVerificacao
  router.add("POST", "/sandbox/v1/payment-links/:uuid/verification-code", (ctx) => ({
    status: 200,
    body: setLinkVerificationCode(
      ctx.clientId,
      ctx.params.uuid ?? "",
      parseInput(ZSetVerificationCode, ctx.body).tokenVerificacao,
    ),
  }));

  // POST /sandbox/v1/payment-links/{uuid}/expire – control API: expire a CREATED link now
  router.add("POST", "/sandbox/v1/payment-links/:uuid/expire", (ctx) => ({
    status: 200,
    body: expireLink(ctx.clientId, ctx.params.uuid ?? ""),
  }));
}
