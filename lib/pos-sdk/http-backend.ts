import type { z } from "zod";
import type { Backend } from "./backend";
import { BackendError } from "./errors";
import {
  type ActivationResult,
  type TransactionConfig,
  type TransactionReport,
  ZActivationResult,
  ZTransactionConfig,
} from "./schemas";

export type TEnvironment = "PRODUCTION" | "SANDBOX" | "LOCAL";

// PRODUCTION is a placeholder: a real deployment passes `baseUrl`. SANDBOX and LOCAL: `npm run demo` / `npm run dev`.
export const POS_BASE_URLS: Record<TEnvironment, string> = {
  PRODUCTION: "https://dashboard.example.com",
  SANDBOX: "http://127.0.0.1:3000",
  LOCAL: "http://127.0.0.1:3000",
};

export const DEFAULT_TIMEOUT_MS = 10_000;

export type THttpBackendOptions = {
  apiKey: string;
  /** Wins over `environment`. */
  baseUrl?: string;
  environment?: TEnvironment;
  /** Per request, including reading the body. */
  timeoutMs?: number;
  /** For proxies and tests; defaults to the global fetch. */
  fetch?: typeof fetch;
};

function describeFailure(error: unknown): string {
  if (error instanceof DOMException && error.name === "TimeoutError") return "timed out";
  if (error instanceof DOMException && error.name === "AbortError") return "aborted";
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

function detailOf(status: number, statusText: string, text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object" && "message" in body && typeof body.message === "string") return body.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 500) || statusText || `HTTP ${status}`;
}

/** The contract's HTTP transport: `Authorization: Bearer <apiKey>` on every call, JSON bodies, zod-checked answers. */
export class HttpBackend implements Backend {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: THttpBackendOptions) {
    this.baseUrl = (options.baseUrl ?? POS_BASE_URLS[options.environment ?? "PRODUCTION"]).replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  activateSeller(sellerToken: string): Promise<ActivationResult> {
    return this.#request("POST", "/v1/sellers/activate", { sellerToken }, ZActivationResult);
  }

  fetchTransactionConfig(posId: string): Promise<TransactionConfig> {
    const query = new URLSearchParams({ posId });
    return this.#request("GET", `/v1/transactions/config?${query}`, undefined, ZTransactionConfig);
  }

  async reportTransaction(report: TransactionReport): Promise<void> {
    await this.#request("POST", "/v1/transactions", report, null);
  }

  async #request<T>(method: string, path: string, body: unknown, schema: z.ZodType<T> | null): Promise<T> {
    const headers: Record<string, string> = { accept: "application/json" };
    // An empty key sends no header at all, so the server answers its own 401 (contract 5).
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await this.#fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: "error",
      });
      const status = response.status;
      const text = await response.text();
      if (!response.ok) throw new BackendError(status, detailOf(status, response.statusText, text));
      if (schema === null) return undefined as T;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new BackendError(status, "the answer is not JSON");
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new BackendError(status, `unexpected answer: ${issue?.path.join(".") || "body"} ${issue?.message ?? ""}`);
      }
      return parsed.data;
    } catch (error) {
      if (error instanceof BackendError) throw error;
      // No (complete) answer: DNS, refused connection, TLS, timeout, a body cut short. Status 0.
      throw new BackendError(0, describeFailure(error), { cause: error });
    }
  }
}
