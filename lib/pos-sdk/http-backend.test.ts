import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BackendError } from "./errors";
import { HttpBackend, POS_BASE_URLS } from "./http-backend";

type TSeen = { method?: string; url?: string; authorization?: string; body: string };

// A stand-in server whose answer each test sets.
let answer: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();
const seen: TSeen[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  req.on("end", () => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
    answer(req, res);
  });
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const json = (status: number, body: unknown) => (_req: http.IncomingMessage, res: http.ServerResponse) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

async function failure(promise: Promise<unknown>): Promise<BackendError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BackendError);
  return error as BackendError;
}

describe("HttpBackend", () => {
  it("picks the base URL: explicit, else by environment (PRODUCTION by default)", () => {
    expect(new HttpBackend({ apiKey: "k", baseUrl: "http://x.test/" }).baseUrl).toBe("http://x.test");
    expect(new HttpBackend({ apiKey: "k", environment: "SANDBOX" }).baseUrl).toBe("http://127.0.0.1:3000");
    expect(new HttpBackend({ apiKey: "k", environment: "LOCAL" }).baseUrl).toBe("http://127.0.0.1:3000");
    expect(new HttpBackend({ apiKey: "k" }).baseUrl).toBe(POS_BASE_URLS.PRODUCTION);
  });

  it("sends the bearer key and JSON, and parses the activation result", async () => {
    const result = { sellerId: "s1", posId: "p1", subEstablishmentRef: "SUB1", tlsRegistered: false };
    answer = json(200, result);
    const backend = new HttpBackend({ apiKey: "pos_live_key", baseUrl });
    await expect(backend.activateSeller("tok")).resolves.toEqual(result);
    expect(seen.at(-1)).toEqual({
      method: "POST",
      url: "/v1/sellers/activate",
      authorization: "Bearer pos_live_key",
      body: JSON.stringify({ sellerToken: "tok" }),
    });
  });

  it("sends posId in the query and accepts a 202 without a body", async () => {
    answer = (_req, res) => res.writeHead(202).end();
    const backend = new HttpBackend({ apiKey: "k", baseUrl });
    await expect(
      backend.reportTransaction({
        posId: "p 1",
        approved: true,
        codResp: 0,
        nsuGateway: "1",
        nsuHost: "2",
        cardBrand: "VISA",
        acquirerNetwork: "REDE",
        authorizationCode: "1",
        installments: 1,
        amountInCents: 1,
        occurredAt: "2026-11-24T10:00:00.000Z",
      }),
    ).resolves.toBeUndefined();
    answer = json(404, { code: 404, message: "unknown posId" });
    await failure(backend.fetchTransactionConfig("p 1&x=1"));
    expect(seen.at(-1)?.url).toBe("/v1/transactions/config?posId=p+1%26x%3D1");
  });

  it("sends no Authorization header for an empty key", async () => {
    answer = json(401, { code: 401, message: "missing API key" });
    const error = await failure(new HttpBackend({ apiKey: "", baseUrl }).fetchTransactionConfig("p"));
    expect(seen.at(-1)?.authorization).toBeUndefined();
    expect(error).toMatchObject({ status: 401, detail: "missing API key" });
  });

  it("maps a non-2xx answer to BackendError(status, message of the JSON body, else the text)", async () => {
    const backend = new HttpBackend({ apiKey: "k", baseUrl });
    answer = json(422, { code: 422, message: "invalid seller token" });
    expect(await failure(backend.activateSeller("t"))).toMatchObject({ status: 422, detail: "invalid seller token" });
    answer = (_req, res) => res.writeHead(502).end("Bad gateway from the proxy");
    expect(await failure(backend.activateSeller("t"))).toMatchObject({
      status: 502,
      detail: "Bad gateway from the proxy",
    });
  });

  it("refuses a 200 whose body is not the contract's", async () => {
    answer = json(200, { sellerId: "s1" });
    const error = await failure(new HttpBackend({ apiKey: "k", baseUrl }).activateSeller("t"));
    expect(error.status).toBe(200);
    expect(error.detail).toContain("posId");
  });

  it("maps a timeout to status 0", async () => {
    answer = (_req, res) => setTimeout(() => res.writeHead(200).end("{}"), 500);
    const error = await failure(new HttpBackend({ apiKey: "k", baseUrl, timeoutMs: 50 }).fetchTransactionConfig("p"));
    expect(error).toMatchObject({ status: 0, detail: "timed out" });
  });

  it("maps a refused connection to status 0", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(
      new HttpBackend({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}` }).fetchTransactionConfig("p"),
    );
    expect(error.status).toBe(0);
  });
});
