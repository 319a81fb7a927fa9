import type { Backend } from "./backend";
import { BackendError } from "./errors";
import { verifyHs256 } from "./hs256";
import {
  type ActivationResult,
  occurredAtBoundsProblem,
  requiredTransactionConfigFields,
  type TransactionConfig,
  type TransactionReport,
  ZActivationRequest,
  ZTransactionReport,
} from "./schemas";

// A fake that follows the server's rules; the contract suite (contract.ts) runs against it and against the app.

export const IN_MEMORY_DEFAULT_API_KEY = "pos_test_in_memory_key";
/** The `aud` the server requires of seller tokens (lib/pos/seller-token.ts). */
export const POS_SELLER_TOKEN_AUDIENCE = "payments-dashboard-pos";
const clockToleranceSeconds = 30;
const maxLifetimeSeconds = 24 * 60 * 60;
/** The default verifier accepts `test-seller:<reference>`, reusable, for any reference. */
export const IN_MEMORY_TEST_TOKEN_PREFIX = "test-seller:";

export type TVerifiedSellerToken = { sellerReference: string; tokenId?: string; expiresAt?: Date };
/** Returns the verified token, or null for an invalid one (422). */
export type TSellerTokenVerifier = (
  token: string,
) => Promise<TVerifiedSellerToken | null> | TVerifiedSellerToken | null;
/** Seller tokens as the server verifies them: HS256 JWTs with `sub`, `exp`, `aud` and a single-use `jti`. */
export type THs256SellerTokens = { secret: string; audience?: string };

export type TInMemoryBackendOptions = {
  /** The key this instance presents (null: none). Default IN_MEMORY_DEFAULT_API_KEY. */
  apiKey?: string | null;
  /** Keys the fake accepts. Default: [apiKey], or the default key. */
  acceptedApiKeys?: string[];
  /** Default: `test-seller:<reference>` tokens. */
  sellerTokens?: THs256SellerTokens | TSellerTokenVerifier;
  /** Seller references refused at activation (422) and whose PDVs get no config. */
  blockedSellers?: string[];
  /** Over a complete sample config; a text field set to "" makes the config call a 422, as on the server. */
  config?: Partial<TransactionConfig>;
  now?: () => Date;
};

export type TInMemorySeller = { sellerId: string; reference: string; subEstablishmentRef: string; isBlocked: boolean };
export type TInMemoryPos = { posId: string; sellerId: string; isBlocked: boolean };
export type TInMemoryConflict = { stored: TransactionReport; received: TransactionReport };

const defaultConfig: TransactionConfig = {
  empresaGateway: "DEMO0001",
  enderecoGateway: "127.0.0.1:8443",
  cnpjCpf: "11222333000181",
  comExterna: "1",
  tokenRegistroTls: "in-memory-tls-registration-token",
  cnpjAutomacao: "11222333000181",
  cnpjFacilitador: "11222333000181",
  branding: { logoUrl: "http://127.0.0.1:3000/icon.svg", primaryColor: "#0f172a", secondaryColor: "#f8fafc" },
};

type TState = {
  sellers: Map<string, TInMemorySeller>;
  devices: Map<string, TInMemoryPos>;
  usedTokenIds: Map<string, Date>;
  reports: Map<string, TransactionReport>;
  conflicts: TInMemoryConflict[];
  sequence: number;
};

type TShared = {
  state: TState;
  acceptedApiKeys: Set<string>;
  verify: TSellerTokenVerifier;
  config: TransactionConfig;
  now: () => Date;
};

const sameReport = (a: TransactionReport, b: TransactionReport) =>
  (Object.keys(a) as (keyof TransactionReport)[]).every((field) => a[field] === b[field]);

const reportKey = (posId: string, nsuGateway: string) => `${posId}\u0000${nsuGateway}`;

function business(message: string): BackendError {
  return new BackendError(422, message);
}

function validation(issues: readonly { path: PropertyKey[]; message: string; code: string; input?: unknown }[]) {
  const issue = issues[0];
  if (!issue) return business("invalid body");
  const field = issue.path.map(String).join(".");
  if (issue.code === "invalid_type" && issue.input === undefined) return business(`${field} is required`);
  return business(field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message);
}

function hs256Verifier(
  { secret, audience = POS_SELLER_TOKEN_AUDIENCE }: THs256SellerTokens,
  now: () => Date,
): TSellerTokenVerifier {
  return async (token) => {
    const claims = await verifyHs256(token, secret);
    if (!claims) return null;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const nowSeconds = now().getTime() / 1000;
    if (typeof claims.sub !== "string" || !claims.sub.trim() || claims.sub.length > 200) return null;
    if (!audiences.includes(audience)) return null;
    if (typeof claims.exp !== "number" || claims.exp + clockToleranceSeconds <= nowSeconds) return null;
    if (claims.exp - nowSeconds > maxLifetimeSeconds) return null;
    if (typeof claims.nbf === "number" && claims.nbf - clockToleranceSeconds > nowSeconds) return null;
    if (typeof claims.iat === "number" && claims.iat - clockToleranceSeconds > nowSeconds) return null;
    if (typeof claims.jti !== "string" || !claims.jti.trim() || claims.jti.length > 200) return null;
    return { sellerReference: claims.sub, tokenId: claims.jti, expiresAt: new Date(claims.exp * 1000) };
  };
}

const testTokenVerifier: TSellerTokenVerifier = (token) =>
  token.startsWith(IN_MEMORY_TEST_TOKEN_PREFIX) && token.length > IN_MEMORY_TEST_TOKEN_PREFIX.length
    ? { sellerReference: token.slice(IN_MEMORY_TEST_TOKEN_PREFIX.length) }
    : null;

export class InMemoryBackend implements Backend {
  #shared: TShared;
  #apiKey: string | null;

  constructor(options: TInMemoryBackendOptions = {}) {
    const apiKey = options.apiKey === undefined ? IN_MEMORY_DEFAULT_API_KEY : options.apiKey;
    const now = options.now ?? (() => new Date());
    const { sellerTokens } = options;
    this.#apiKey = apiKey;
    this.#shared = {
      state: {
        sellers: new Map(),
        devices: new Map(),
        usedTokenIds: new Map(),
        reports: new Map(),
        conflicts: [],
        sequence: 0,
      },
      acceptedApiKeys: new Set(options.acceptedApiKeys ?? (apiKey ? [apiKey] : [IN_MEMORY_DEFAULT_API_KEY])),
      verify:
        sellerTokens === undefined
          ? testTokenVerifier
          : typeof sellerTokens === "function"
            ? sellerTokens
            : hs256Verifier(sellerTokens, now),
      config: {
        ...defaultConfig,
        ...options.config,
        branding: { ...defaultConfig.branding, ...options.config?.branding },
      },
      now,
    };
    for (const reference of options.blockedSellers ?? []) this.#sellerOf(reference).isBlocked = true;
  }

  /** The same fake (shared state) seen by a client presenting another key, or none (null). */
  withApiKey(apiKey: string | null): InMemoryBackend {
    const view = new InMemoryBackend();
    view.#shared = this.#shared;
    view.#apiKey = apiKey;
    return view;
  }

  get sellers(): TInMemorySeller[] {
    return [...this.#shared.state.sellers.values()];
  }

  get devices(): TInMemoryPos[] {
    return [...this.#shared.state.devices.values()];
  }

  get reports(): TransactionReport[] {
    return [...this.#shared.state.reports.values()];
  }

  get conflicts(): TInMemoryConflict[] {
    return [...this.#shared.state.conflicts];
  }

  blockSeller(reference: string): void {
    this.#sellerOf(reference).isBlocked = true;
  }

  blockPos(posId: string): void {
    const device = this.#shared.state.devices.get(posId);
    if (device) device.isBlocked = true;
  }

  async activateSeller(sellerToken: string): Promise<ActivationResult> {
    this.#authenticate();
    const parsed = ZActivationRequest.safeParse({ sellerToken });
    if (!parsed.success) throw validation(parsed.error.issues);
    const verified = await this.#shared.verify(parsed.data.sellerToken);
    if (!verified) throw business("invalid seller token");
    const { usedTokenIds } = this.#shared.state;
    if (verified.tokenId !== undefined && usedTokenIds.has(verified.tokenId))
      throw business("invalid seller token: already used (jti replay)");
    const seller = this.#sellerOf(verified.sellerReference);
    // Refused before the jti is recorded: as on the server, a refused activation does not burn the token.
    if (seller.isBlocked) throw business("seller refused");
    if (verified.tokenId !== undefined) usedTokenIds.set(verified.tokenId, verified.expiresAt ?? this.#shared.now());
    const posId = `pos_${this.#next()}`;
    this.#shared.state.devices.set(posId, { posId, sellerId: seller.sellerId, isBlocked: false });
    const tlsRegistered = this.#shared.config.tokenRegistroTls !== "";
    return { sellerId: seller.sellerId, posId, subEstablishmentRef: seller.subEstablishmentRef, tlsRegistered };
  }

  async fetchTransactionConfig(posId: string): Promise<TransactionConfig> {
    this.#authenticate();
    if (!posId?.trim()) throw business("posId is required");
    const device = this.#shared.state.devices.get(posId);
    if (!device) throw new BackendError(404, "unknown posId");
    const seller = this.sellers.find((candidate) => candidate.sellerId === device.sellerId);
    if (device.isBlocked) throw business("PDV blocked");
    if (seller?.isBlocked) throw business("seller blocked");
    const missing = requiredTransactionConfigFields.filter((field) => this.#shared.config[field] === "");
    if (missing.length > 0)
      throw business(
        `transaction configuration not set for this PDV (missing ${missing.join(", ")}): an admin sets it under Ponto de venda`,
      );
    return structuredClone(this.#shared.config);
  }

  async reportTransaction(report: TransactionReport): Promise<void> {
    this.#authenticate();
    const parsed = ZTransactionReport.safeParse(report);
    if (!parsed.success) throw validation(parsed.error.issues);
    const received = parsed.data;
    const outOfBounds = occurredAtBoundsProblem(received.occurredAt, this.#shared.now());
    if (outOfBounds) throw new BackendError(400, outOfBounds);
    const device = this.#shared.state.devices.get(received.posId);
    if (!device) throw new BackendError(404, "unknown posId");
    if (device.isBlocked) throw business("PDV blocked");
    if (this.sellers.find((seller) => seller.sellerId === device.sellerId)?.isBlocked) throw business("seller blocked");
    const key = reportKey(received.posId, received.nsuGateway);
    const stored = this.#shared.state.reports.get(key);
    if (!stored) {
      this.#shared.state.reports.set(key, received);
      return;
    }
    // Idempotent on (posId, nsuGateway): an identical retry is a 202; a different repeat is kept once for review,
    // never applied, and answered 409.
    if (sameReport(stored, received)) return;
    const { conflicts } = this.#shared.state;
    if (!conflicts.some((conflict) => conflict.stored === stored && sameReport(conflict.received, received)))
      conflicts.push({ stored, received });
    throw new BackendError(
      409,
      `a different report for nsuGateway ${received.nsuGateway} is already stored: kept for review, not applied`,
    );
  }

  #authenticate() {
    const key = this.#apiKey;
    if (!key) throw new BackendError(401, "missing API key");
    if (!this.#shared.acceptedApiKeys.has(key)) throw new BackendError(401, "invalid API key");
  }

  #next(): string {
    this.#shared.state.sequence += 1;
    return String(this.#shared.state.sequence).padStart(6, "0");
  }

  #sellerOf(reference: string): TInMemorySeller {
    const { sellers } = this.#shared.state;
    let seller = sellers.get(reference);
    if (!seller) {
      const number = this.#next();
      seller = { sellerId: `seller_${number}`, reference, subEstablishmentRef: `SUB${number}`, isBlocked: false };
      sellers.set(reference, seller);
    }
    return seller;
  }
}
