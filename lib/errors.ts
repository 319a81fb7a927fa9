// Codes are stable and documented (docs/errors.md); the message is safe to show; `cause` and `details` are
// logged, never shown raw.
export const appErrorCodes = {
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

export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly status: number;
  readonly fieldErrors?: Record<string, string>;

  constructor(
    code: TAppErrorCode,
    message: string,
    options: { cause?: unknown; fieldErrors?: Record<string, string>; status?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? appErrorCodes[code];
    this.fieldErrors = options.fieldErrors;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
