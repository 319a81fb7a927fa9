import { randomUUID } from "node:crypto";
import { applyFaults } from "../control/faults";
import { httpError, renderError, SandboxHttpError, type TErrorFlavor } from "./errors";

type TRequestContext = {
  /** The CN of the client certificate: every resource belongs to it. */
  clientId: string;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON, or undefined when the request had no body. */
  body: unknown;
  /** x-transaction-id of the request, or a generated uuid. */
  transactionId: string;
};

export type TReply = { status: number; body?: unknown; headers?: Record<string, string> };
export type THandler = (ctx: TRequestContext) => TReply | Promise<TReply>;

type Route = { method: string; pattern: RegExp; names: string[]; handler: THandler; flavor: TErrorFlavor };

// Card payments, card tokens and payment links answer errors with 7.2; everything else with 7.1.
const paymentFlavorPrefixes = [
  "/api/v1/payments",
  "/api/v1/cards",
  "/api/v1/link-payment",
  "/sandbox/v1/payment-links",
];

export function flavorOfPath(path: string): TErrorFlavor {
  return paymentFlavorPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) ? "payment" : "pix";
}

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}/?$`), names };
}

export type TRawRequest = {
  clientId: string;
  method: string;
  url: string;
  transactionId?: string;
  /** The request's Content-Type header, when sent. */
  contentType?: string;
  /** Raw body text; empty when none. */
  bodyText: string;
};

export class Router {
  private readonly routes: Route[] = [];

  /** `router.add("GET", "/api/v1/pix-charges/:txid", handler)`; the error flavor follows the path unless given. */
  add(method: string, path: string, handler: THandler, flavor: TErrorFlavor = flavorOfPath(path)): this {
    this.routes.push({ method: method.toUpperCase(), ...compile(path), handler, flavor });
    return this;
  }

  async handle(request: TRawRequest): Promise<TReply> {
    const transactionId = request.transactionId || randomUUID();
    const url = new URL(request.url, "https://sandbox.invalid");
    const path = url.pathname;
    let flavor = flavorOfPath(path);
    try {
      await applyFaults(request.clientId, path);
      let pathMatched = false;
      for (const route of this.routes) {
        const match = route.pattern.exec(path);
        if (!match) continue;
        pathMatched = true;
        if (route.method !== request.method) continue;
        flavor = route.flavor;
        const params: Record<string, string> = {};
        route.names.forEach((name, index) => {
          params[name] = decodeURIComponent(match[index + 1] ?? "");
        });
        const ctx: TRequestContext = {
          clientId: request.clientId,
          method: request.method,
          path,
          params,
          query: url.searchParams,
          body: parseJsonBody(request.bodyText, request.contentType),
          transactionId,
        };
        const reply = await route.handler(ctx);
        return withTransactionId(reply, transactionId);
      }
      throw pathMatched ? httpError(405, "Método não permitido") : httpError(404, "Recurso não encontrado");
    } catch (error) {
      if (error instanceof SandboxHttpError) {
        return withTransactionId(
          { status: error.status, body: renderError(error, flavor, transactionId) },
          transactionId,
        );
      }
      console.error("sandbox: unexpected error", error);
      const internal = httpError(500, "Erro interno");
      return withTransactionId({ status: 500, body: renderError(internal, flavor, transactionId) }, transactionId);
    }
  }
}

// Spec 4.7: a body goes with Content-Type application/json. Section 7 lists no 415, so another type is the 400 of
// "invalid request" (the sandbox's choice, README), naming the header.
const jsonContentType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === "") return undefined;
  if (!jsonContentType.test(contentType?.trim() ?? "")) {
    throw httpError(400, "Content-Type deve ser application/json", [
      {
        campo: "Content-Type",
        erro: contentType
          ? `tipo não aceito (${contentType.slice(0, 100)}): use application/json`
          : "ausente: use application/json",
      },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw httpError(400, "Corpo da requisição não é um JSON válido", [{ campo: "body", erro: "JSON inválido" }]);
  }
}

function withTransactionId(reply: TReply, transactionId: string): TReply {
  return { ...reply, headers: { "x-transaction-id": transactionId, ...reply.headers } };
}
