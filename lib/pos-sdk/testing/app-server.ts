import http from "node:http";
import type net from "node:net";
import { Readable } from "node:stream";

export type TRouteTable = Record<string, Partial<Record<"GET" | "POST", (request: Request) => Promise<Response>>>>;

export async function startAppServer(routes: TRouteTable): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? "/", "http://x").pathname;
    const handler = routes[pathname]?.[req.method as "GET" | "POST"];
    if (!handler) {
      req.resume();
      res.writeHead(routes[pathname] ? 405 : 404).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    try {
      const response = await handler(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers,
          body: hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined,
          duplex: "half",
        } as RequestInit),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
