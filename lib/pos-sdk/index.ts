// The TypeScript POS client (docs/pos.md "TypeScript client"). Framework-free: zod and fetch only, so it runs in
// Node, a browser or a React Native shell; nothing here may import Next.js or the app's server modules.
export type { Backend } from "./backend";
export { PosClient, type TPosClientConfig, type TPosLogger, type TSaleRequest, type TSaleResult } from "./client";
export { BackendError, isBackendError } from "./errors";
export {
  DEFAULT_TIMEOUT_MS,
  HttpBackend,
  POS_BASE_URLS,
  type TEnvironment,
  type THttpBackendOptions,
} from "./http-backend";
export {
  IN_MEMORY_DEFAULT_API_KEY,
  IN_MEMORY_TEST_TOKEN_PREFIX,
  InMemoryBackend,
  POS_SELLER_TOKEN_AUDIENCE,
  type THs256SellerTokens,
  type TInMemoryBackendOptions,
  type TInMemoryConflict,
  type TSellerTokenVerifier,
  type TVerifiedSellerToken,
} from "./in-memory-backend";
export {
  buildPaymentIntent,
  type PaymentApp,
  SimulatedPaymentApp,
  type TPaymentAppResult,
  type TPaymentIntent,
  type TSimulatedPaymentAppOptions,
} from "./payment-app";
export {
  type ActivationResult,
  type TBusinessError,
  type TransactionConfig,
  type TransactionReport,
  ZActivationResult,
  ZBusinessError,
  ZTransactionConfig,
  ZTransactionReport,
} from "./schemas";
