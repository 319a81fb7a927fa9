import type { ActivationResult, TransactionConfig, TransactionReport } from "./schemas";

// The contract's client-side extension point: an app may replace the HTTP transport (proxy, extra auth, mTLS) with
// its own implementation; the sale flow does not change. Implementations reject with BackendError.
export interface Backend {
  activateSeller(sellerToken: string): Promise<ActivationResult>;
  fetchTransactionConfig(posId: string): Promise<TransactionConfig>;
  reportTransaction(report: TransactionReport): Promise<void>;
}
