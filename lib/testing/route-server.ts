import http from "node:http";
import type net from "node:net";
import { Readable } from "node:stream";

type RouteHandler<TParams> = (request: Request, context: { params: Promise<TParams> }) => Promise<Response>;

export type TRouteServer = { url: string; close: () => Promise<void> };

export async function startRouteServer<TParams extends Record<string, string>>(
  pattern: string,
  handler: RouteHandler<TParams>,
  options: { intercept?: () => number | null } = {},
): Promise<TRouteServer> {
  const names: string[] = [];
  const matcher = new RegExp(
    `^${pattern.replace(/\[(\w+)\]/g, (_match, name: string) => {
      names.push(name);
      return "([^/]+)";
    })}$`,
  );
  const server = http.createServer(async (req, res) => {
    const match = matcher.exec(new URL(req.url ?? "/", "http://x").pathname);
    const intercepted = options.intercept?.() ?? null;
    if (!match || intercepted !== null) {
      req.resume();
      res.writeHead(match ? intercepted! : 404).end();
      return;
    }
    const params = Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]),
    ) as TParams;
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    try {
      const response = await handler(
        new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body, duplex: "half" } as RequestInit),
        {
          params: Promise.resolve(params),
        },
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch {
      res.writeHead(500).end();
    }
  });
  server.keepAliveTimeout = 30_000;
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
