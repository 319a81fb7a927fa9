import "server-only";
import { describeGatewayFailure, GatewayHttpError, toAppError } from "@/lib/gateway/errors";
import { log } from "@/lib/log";

// The gateway is the truth, the mirror its last known copy: a read goes through the gateway (which writes the mirror)
// and, when the gateway cannot answer, shows the mirrored row rather than an error.

type TReadThrough<TRow, TRead> = {
  /** The gateway read, written into the mirror. */
  read: () => Promise<TRead>;
  /** The row the caller read before: null (not mirrored) or undefined (not read) reads it again with `readMirror`. */
  mirrored: TRow | null | undefined;
  readMirror?: () => Promise<TRow | null>;
  /** The warning logged when the mirror answers: the resource's id fields and the message. */
  warning: { fields: Record<string, unknown>; message: string };
  /** What to throw when nothing is mirrored either; the AppError of the failure by default. */
  unmirrored?: (error: unknown) => Promise<unknown>;
};

/** What `read` answers, or null when the gateway does not know the resource (HTTP 404). */
export async function readOrNullWhenUnknown<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof GatewayHttpError && error.status === 404) return null;
    throw error;
  }
}

export async function readThroughMirror<TRow, TRead>(spec: TReadThrough<TRow, TRead>): Promise<TRead | TRow> {
  try {
    return await spec.read();
  } catch (error) {
    const mirrored = spec.mirrored ?? (spec.readMirror ? await spec.readMirror() : null);
    if (!mirrored) throw spec.unmirrored ? await spec.unmirrored(error) : toAppError(error);
    log.warn({ ...spec.warning.fields, failure: describeGatewayFailure(error) }, spec.warning.message);
    return mirrored;
  }
}
