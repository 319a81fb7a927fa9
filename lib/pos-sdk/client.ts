import type { Backend } from "./backend";
import { BackendError } from "./errors";
import { HttpBackend, type TEnvironment } from "./http-backend";
import { buildPaymentIntent, type PaymentApp, type TPaymentAppResult } from "./payment-app";
import type { ActivationResult, TransactionConfig, TransactionReport } from "./schemas";

export type TPosLogger = {
  info?: (message: string, data?: Record<string, unknown>) => void;
  error: (message: string, data?: Record<string, unknown>) => void;
};

export type TPosClientConfig = {
  apiKey: string;
  environment?: TEnvironment;
  /** A custom transport (contract "Client-side extension point"); without it, HttpBackend. */
  backend?: Backend;
  /** HttpBackend only. */
  baseUrl?: string;
  timeoutMs?: number;
  logger?: TPosLogger;
  /** Capture clock of occurredAt; for tests. */
  now?: () => Date;
};

export type TSaleRequest = { posId: string; amountInCents: number; installments: number; paymentApp: PaymentApp };

export type TSaleResult = {
  /** The payment application's answer: the sale happened (or was declined) whatever the report did. */
  payment: TPaymentAppResult;
  report: TransactionReport;
  isReported: boolean;
  reportError?: BackendError;
};

const consoleLogger: TPosLogger = { error: (message, data) => console.error(`[pos-sdk] ${message}`, data ?? "") };

export class PosClient {
  readonly backend: Backend;
  readonly #logger: TPosLogger;
  readonly #now: () => Date;

  constructor(config: TPosClientConfig) {
    this.backend =
      config.backend ??
      new HttpBackend({
        apiKey: config.apiKey,
        environment: config.environment,
        baseUrl: config.baseUrl,
        timeoutMs: config.timeoutMs,
      });
    this.#logger = config.logger ?? consoleLogger;
    this.#now = config.now ?? (() => new Date());
  }

  activate(sellerToken: string): Promise<ActivationResult> {
    return this.backend.activateSeller(sellerToken);
  }

  /**
   * Config (never cached: 2.3), the payment application, then a best-effort report (rule 1: a failed report is logged,
   * the result still returned). A config failure rejects with BackendError before any payment is attempted.
   */
  async sale({ posId, amountInCents, installments, paymentApp }: TSaleRequest): Promise<TSaleResult> {
    if (!posId) throw new TypeError("posId is required");
    if (!Number.isInteger(amountInCents) || amountInCents <= 0)
      throw new RangeError("amountInCents must be a positive integer");
    if (!Number.isInteger(installments) || installments < 1)
      throw new RangeError("installments must be an integer ≥ 1");

    let config: TransactionConfig | null = await this.backend.fetchTransactionConfig(posId);
    this.#logger.info?.("transaction config resolved", { posId, empresaGateway: config.empresaGateway });
    const intent = buildPaymentIntent(config, { posId, amountInCents, installments });
    // Discarded once the Intent is built: nothing of it outlives the sale.
    config = null;
    const payment = await paymentApp.pay(intent);
    const report: TransactionReport = {
      posId,
      approved: payment.approved,
      codResp: payment.codResp,
      nsuGateway: payment.nsuGateway,
      nsuHost: payment.nsuHost,
      cardBrand: payment.cardBrand,
      acquirerNetwork: payment.acquirerNetwork,
      authorizationCode: payment.authorizationCode,
      installments: payment.installments,
      amountInCents,
      occurredAt: this.#now().toISOString(),
    };
    this.#logger.info?.("payment application answered", {
      posId,
      approved: payment.approved,
      codResp: payment.codResp,
      nsuGateway: payment.nsuGateway,
    });
    try {
      await this.backend.reportTransaction(report);
      this.#logger.info?.("sale reported", { posId, nsuGateway: report.nsuGateway });
      return { payment, report, isReported: true };
    } catch (error) {
      const reportError =
        error instanceof BackendError
          ? error
          : new BackendError(0, error instanceof Error ? error.message : String(error), { cause: error });
      this.#logger.error("sale report failed; the sale result is returned anyway", {
        posId,
        nsuGateway: report.nsuGateway,
        status: reportError.status,
        detail: reportError.detail,
      });
      return { payment, report, isReported: false, reportError };
    }
  }
}
