import { SandboxClient } from "./sandbox-client";
import { test as base } from "./sandbox-control";
import { targetOf } from "./targets";

export type TTestLink = { linkPaymentUuid: string; tokenVerificacao: number; valor: number };

// Payment links made straight at the sandbox (the merchant's certificate), for the payer's specs:
// the hosted page mirrors a link it does not know on first read, so no staff session is needed.
export class LinkGateway {
  constructor(private readonly client: SandboxClient) {}

  async createLink(input: { valor?: number; numeroParcelas?: number; metodos?: (1 | 2)[] } = {}): Promise<TTestLink> {
    return (await this.client.call("POST", "/api/v1/link-payment", {
      nomePagador: "Fulano de Tal",
      numeroInscricao: "52998224725",
      valor: input.valor ?? 100,
      numeroParcelas: input.numeroParcelas ?? 3,
      descricao: "Pedido e2e",
      metodosPagamentosAceitos: input.metodos ?? [1, 2],
      diasExpiracao: 2,
    })) as TTestLink;
  }

  async expireLink(linkPaymentUuid: string) {
    await this.client.call("POST", `/sandbox/v1/payment-links/${linkPaymentUuid}/expire`);
  }

  /** Gives the link another verification code: the spec's tokenVerificacao is any integer, not six digits. */
  async setVerificationCode(linkPaymentUuid: string, tokenVerificacao: number) {
    await this.client.call("POST", `/sandbox/v1/payment-links/${linkPaymentUuid}/verification-code`, {
      tokenVerificacao,
    });
  }

  async cancelLink(linkPaymentUuid: string) {
    await this.client.call("PUT", `/api/v1/link-payment/${linkPaymentUuid}/cancel`);
  }

  /** The txid of the link's Pix charge, found by the userReference the hosted page gives it. */
  async findLinkPixTxid(linkPaymentUuid: string): Promise<string | undefined> {
    const today = new Date().toISOString().slice(0, 10);
    const page = (await this.client.call(
      "GET",
      `/api/v1/pix-charges?initialDate=${today}T00:00:00Z&endDate=${today}T23:59:59Z&size=100&sort=creationDate,desc`,
    )) as {
      content: { txid: string; userReference: string | null }[];
    };
    return page.content.find((charge) => charge.userReference === `payment-link:${linkPaymentUuid}`)?.txid;
  }
}

export const test = base.extend<{ links: LinkGateway }>({
  links: async ({ database }, use) => {
    const client = new SandboxClient(targetOf(database).sandboxUrl);
    await use(new LinkGateway(client));
    await client.close();
  },
});

export { expect } from "./sandbox-control";
