// While `npm run demo` seeds, the dashboard is not up yet (PGlite admits one process): this process serves the
// dashboard's own route handlers that the seed's callers need, at the dashboard's address.
import http from "node:http";
import { Readable } from "node:stream";
import { POST as receiveWebhook } from "@/app/api/webhooks/gateway/[webhookId]/route";
import { GET as getTransactionConfig } from "@/app/v1/transactions/config/route";
import { POST as reportTransaction } from "@/app/v1/transactions/route";

type THandler = (request: Request, params: Record<string, string>) => Promise<Response>;

const routes: Array<{ method: string; pattern: RegExp; handler: THandler }> = [
  {
    method: "POST",
    pattern: /^\/api\/webhooks\/gateway\/(?<webhookId>[^/]+)$/,
    handler: (request, params) =>
      receiveWebhook(request, { params: Promise.resolve({ webhookId: params.webhookId! }) }),
  },
  { method: "GET", pattern: /^\/v1\/transactions\/config$/, handler: (request) => getTransactionConfig(request) },
  { method: "POST", pattern: /^\/v1\/transactions$/, handler: (request) => reportTransaction(request) },
];

async function answer(req: http.IncomingMessage, res: http.ServerResponse, origin: string): Promise<void> {
  const url = new URL(req.url ?? "/", origin);
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (!match || route.method !== req.method) continue;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const body = hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined;
    const params = Object.fromEntries(
      Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
    const request = new Request(url, { method: req.method, headers, body, duplex: "half" } as RequestInit);
    const response = await route.handler(request, params);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  req.resume();
  res.writeHead(503, { "retry-after": "30" }).end();
}

/** Listens on 127.0.0.1 at the port of `baseUrl`; anything else is a 503, as while a server starts. */
export async function startDemoHost(baseUrl: string): Promise<() => Promise<void>> {
  const { origin, port } = new URL(baseUrl);
  const server = http.createServer((req, res) => {
    answer(req, res, origin).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(Number(port || 80), "127.0.0.1", () => resolve());
  });
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
