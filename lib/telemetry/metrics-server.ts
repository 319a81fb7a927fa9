import "server-only";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { metricsResponse } from "./metrics-endpoint";

export type TMetricsServer = { port: number; close: () => Promise<void> };

function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers.set(name, value);
  }
  return headers;
}

// The worker has no Next.js server: GET /metrics answers as the web servers' /api/metrics does (same token).
export function startMetricsServer(port: number, host?: string): Promise<TMetricsServer> {
  const server = createServer((request, response) => {
    request.resume();
    // Not `new URL`: a malformed target would throw here, out of any handler, and end the worker.
    const isMetrics = (request.url ?? "/").split("?")[0] === "/metrics";
    if (!isMetrics) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    if (request.method !== "GET") {
      response.writeHead(405, { allow: "GET" }).end();
      return;
    }
    void metricsResponse(new Request("http://worker/metrics", { headers: headersOf(request) })).then(
      async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
      },
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
