// Contract rule 2: every backend failure surfaces as a BackendError with a status code and a detail text.
// `status` is the HTTP status, or 0 when no answer arrived (network failure, timeout, aborted request).
export class BackendError extends Error {
  readonly status: number;
  readonly detail: string;

  constructor(status: number, detail: string, options?: { cause?: unknown }) {
    super(status === 0 ? `backend unreachable: ${detail}` : `backend error ${status}: ${detail}`, options);
    this.name = "BackendError";
    this.status = status;
    this.detail = detail;
  }
}

export function isBackendError(error: unknown): error is BackendError {
  return error instanceof BackendError;
}
