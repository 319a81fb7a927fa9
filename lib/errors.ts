import type en from "@/lib/i18n/messages/en.json";

// Codes are stable (docs/errors.md); messages are catalog keys the UI translates; `cause` is logged, never shown.
const appErrorCodes = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_FAILED: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  UPSTREAM_UNAVAILABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_REJECTED: 502,
  INTERNAL: 500,
} as const;

export type TAppErrorCode = keyof typeof appErrorCodes;

type TKeyPaths<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : TKeyPaths<T[K], `${P}${K}.`>;
}[keyof T & string];

export type TMessageKey = TKeyPaths<typeof en>;
export type TMessageParams = Record<string, string | number>;

export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly status: number;
  readonly messageKey: TMessageKey;
  readonly params?: TMessageParams;
  readonly fieldErrors?: Record<string, string>;

  constructor(
    code: TAppErrorCode,
    messageKey: TMessageKey,
    options: {
      cause?: unknown;
      params?: TMessageParams;
      fieldErrors?: Record<string, string>;
      status?: number;
    } = {},
  ) {
    // The key doubles as `message`, so a log line names the failure without a catalog.
    super(messageKey, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? appErrorCodes[code];
    this.messageKey = messageKey;
    this.params = options.params;
    this.fieldErrors = options.fieldErrors;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
