import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";

import { test as base } from "./sandbox-control";

// Payment links made straight at the sandbox (the merchant's certificate), for the payer's specs:
// the hosted page mirrors a link it does not know on first read, so no staff session is needed.
const certsDir = process.env.E2E_SANDBOX_CERTS_DIR ?? path.join(process.cwd(), ".data/certs");

export type TTestLink = { linkPaymentUuid: string; tokenVerificacao: number; valor: number };

export class LinkGateway {
  private readonly agent = new Agent({
    connect: {
      ca: readFileSync(path.join(certsDir, "ca.pem")),
      cert: readFileSync(path.join(certsDir, "merchant.pem")),
      key: readFileSync(path.join(certsDir, "merchant-key.pem")),
    },
  });

  constructor(private readonly baseUrl: string) {}

  async createLink(input: { valor?: number; numeroParcelas?: number; metodos?: (1 | 2)[] } = {}): Promise<TTestLink> {
    return (await this.call("POST", "/api/v1/link-payment", {
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
    await this.call("POST", `/sandbox/v1/payment-links/${linkPaymentUuid}/expire`);
  }

  async cancelLink(linkPaymentUuid: string) {
    await this.call("PUT", `/api/v1/link-payment/${linkPaymentUuid}/cancel`);
  }

  /** The txid of the link's Pix charge, found by the userReference the hosted page gives it. */
  async findLinkPixTxid(linkPaymentUuid: string): Promise<string | undefined> {
    const today = new Date().toISOString().slice(0, 10);
    const page = (await this.call("GET", `/api/v1/pix-charges?initialDate=${today}T00:00:00Z&endDate=${today}T23:59:59Z&size=100&sort=creationDate,desc`)) as {
      content: { txid: string; userReference: string | null }[];
    };
    return page.content.find((charge) => charge.userReference === `payment-link:${linkPaymentUuid}`)?.txid;
  }

  async close() {
    await this.agent.close();
  }

  private async call(method: "GET" | "POST" | "PUT", pathname: string, body?: unknown): Promise<unknown> {
    const response = await request(new URL(pathname, this.baseUrl), {
      method,
      dispatcher: this.agent,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`sandbox ${method} ${pathname} answered ${response.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

export const test = base.extend<{ links: LinkGateway }>({
  links: async ({}, use) => {
    const gateway = new LinkGateway(process.env.E2E_SANDBOX_URL ?? "https://127.0.0.1:8543");
    await use(gateway);
    await gateway.close();
  },
});

export { expect } from "./sandbox-control";
