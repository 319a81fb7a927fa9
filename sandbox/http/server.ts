import type { IncomingMessage, ServerResponse } from "node:http";
import https from "node:https";
import { setTimeout as sleep } from "node:timers/promises";
import type { TLSSocket } from "node:tls";
import { httpError, renderError } from "./errors";
import type { Router } from "./router";
import { flavorOfPath } from "./router";

const maxBodyBytes = 1024 * 1024;

export type TServerOptions = { key: string; cert: string; ca: string; router: Router; latencyMs: number };

// The CN is read once per TLS connection: keep-alive clients send many requests on one socket.
const clientIds = new WeakMap<TLSSocket, string | null>();

function clientIdOf(socket: TLSSocket): string | null {
  let id = clientIds.get(socket);
  if (id === undefined) {
    const subject = socket.authorized ? socket.getPeerCertificate().subject : undefined;
    const cn = subject?.CN;
    id = typeof cn === "string" && cn !== "" ? cn : null;
    clientIds.set(socket, id);
  }
  return id;
}

/**
 * HTTPS with mandatory client certificates signed by the sandbox CA: a missing or foreign
 * certificate fails the TLS handshake (spec section 5), so handlers always have a client id.
 */
export function createSandboxServer(options: TServerOptions): https.Server {
  const server = https.createServer(
    {
      key: options.key,
      cert: options.cert,
      ca: options.ca,
      requestCert: true,
      rejectUnauthorized: true,
      keepAliveTimeout: 65_000,
    },
    (req, res) => {
      handle(req, res, options).catch((error: unknown) => {
        console.error("sandbox: failed to answer", error);
        if (!res.headersSent) res.writeHead(500).end();
      });
    },
  );
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, options: TServerOptions): Promise<void> {
  const transactionHeader = req.headers["x-transaction-id"];
  const transactionId = typeof transactionHeader === "string" ? transactionHeader : undefined;
  const bodyText = await readBody(req);
  if (options.latencyMs > 0) await sleep(options.latencyMs);
  const clientId = clientIdOf(req.socket as TLSSocket);
  if (bodyText === null || clientId === null) {
    const error =
      clientId === null
        ? httpError(401, "Certificado de cliente ausente ou inválido")
        : httpError(413, "Corpo da requisição muito grande");
    const id = transactionId ?? crypto.randomUUID();
    send(res, error.status, renderError(error, flavorOfPath(req.url ?? "/"), id), { "x-transaction-id": id });
    return;
  }
  const reply = await options.router.handle({
    clientId,
    method: req.method ?? "GET",
    url: req.url ?? "/",
    transactionId,
    contentType: req.headers["content-type"],
    bodyText,
  });
  send(res, reply.status, reply.body, reply.headers);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const payload = Buffer.from(JSON.stringify(body));
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": payload.length,
      ...headers,
    })
    .end(payload);
}

/** The body as text, or null when it exceeds the limit. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  // An oversized body is still read to its end, so the 413 answer can go out on a healthy socket.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBodyBytes) chunks.push(chunk);
  }
  return size > maxBodyBytes ? null : Buffer.concat(chunks).toString("utf8");
}
