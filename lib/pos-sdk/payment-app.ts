import type { TransactionConfig } from "./schemas";

export type TPaymentIntent = {
  posId: string;
  amountInCents: number;
  installments: number;
  empresaGateway: string;
  enderecoGateway: string;
  cnpjCpf: string;
  comExterna: string;
  /** A secret: kept in memory for this sale only, never logged. */
  tokenRegistroTls: string;
  cnpjAutomacao: string;
  cnpjFacilitador: string;
  branding: TransactionConfig["branding"];
};

export type TPaymentAppResult = {
  approved: boolean;
  codResp: number;
  nsuGateway: string;
  nsuHost: string;
  cardBrand: string;
  acquirerNetwork: string;
  authorizationCode: string;
  installments: number;
};

export interface PaymentApp {
  pay(intent: TPaymentIntent): Promise<TPaymentAppResult>;
}

export function buildPaymentIntent(
  config: TransactionConfig,
  sale: { posId: string; amountInCents: number; installments: number },
): TPaymentIntent {
  return { ...sale, ...config };
}

type TOutcome = "approve" | "decline";

export type TSimulatedPaymentAppOptions = {
  /** Fixed, or decided per intent (e.g. decline above an amount). Default: approve. */
  outcome?: TOutcome | ((intent: TPaymentIntent) => TOutcome);
  /** Deterministic NSUs: the first sale gets nsuStart, then +1. Default: random. */
  nsuStart?: number;
  cardBrand?: string;
  acquirerNetwork?: string;
  /** codResp of a declined sale (0 is the approval). Default 5, "do not honour". */
  declineCode?: number;
};

function randomDigits(length: number): string {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => String(byte % 10)).join("");
}

/** A stand-in for the payment application, for tests, demos and the simulator CLI. */
export class SimulatedPaymentApp implements PaymentApp {
  readonly #options: TSimulatedPaymentAppOptions;
  #nextNsu: number | null;
  readonly intents: TPaymentIntent[] = [];

  constructor(options: TSimulatedPaymentAppOptions = {}) {
    this.#options = options;
    this.#nextNsu = options.nsuStart ?? null;
  }

  async pay(intent: TPaymentIntent): Promise<TPaymentAppResult> {
    this.intents.push(intent);
    const { outcome = "approve" } = this.#options;
    const isApproved = (typeof outcome === "function" ? outcome(intent) : outcome) === "approve";
    let nsuGateway: string;
    let nsuHost: string;
    if (this.#nextNsu === null) {
      nsuGateway = randomDigits(12);
      nsuHost = randomDigits(9);
    } else {
      nsuGateway = String(this.#nextNsu);
      nsuHost = String(this.#nextNsu).padStart(9, "0");
      this.#nextNsu += 1;
    }
    return {
      approved: isApproved,
      codResp: isApproved ? 0 : (this.#options.declineCode ?? 5),
      nsuGateway,
      nsuHost,
      cardBrand: this.#options.cardBrand ?? "VISA",
      acquirerNetwork: this.#options.acquirerNetwork ?? "REDE",
      authorizationCode: isApproved ? randomDigits(6) : "",
      installments: intent.installments,
    };
  }
}
