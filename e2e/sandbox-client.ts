import { readFileSync } from "node:fs";
import path from "node:path";
import { Agent, request } from "undici";
import { rootDir } from "./targets";

// The sandbox over the same mTLS as the app, with the merchant certificate: the sandbox scopes
// every resource to the client certificate, so it must be the app's own.
const certsDir = process.env.E2E_SANDBOX_CERTS_DIR ?? path.join(rootDir, ".data/certs");

export class SandboxClient {
  private readonly agent = new Agent({
    connect: {
      ca: readFileSync(path.join(certsDir, "ca.pem")),
      cert: readFileSync(path.join(certsDir, "merchant.pem")),
      key: readFileSync(path.join(certsDir, "merchant-key.pem")),
    },
  });

  constructor(private readonly baseUrl: string) {}

  /** The parsed JSON answer (undefined when empty); throws on any status from 300 up. */
  async call(method: "GET" | "POST" | "PUT" | "DELETE", pathname: string, body?: unknown): Promise<unknown> {
    const response = await request(new URL(pathname, this.baseUrl), {
      method,
      dispatcher: this.agent,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode >= 300)
      throw new Error(`sandbox ${method} ${pathname} answered ${response.statusCode}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
