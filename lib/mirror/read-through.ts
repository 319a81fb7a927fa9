import "server-only";
import { describeGatewayFailure, isGatewayNotFound, toAppError } from "@/lib/gateway/errors";
import { log } from "@/lib/log";

// The gateway is the truth: a read goes through it (writing the mirror); when it cannot answer, the mirrored row is shown.

type TReadThrough<TRow, TRead> = {
  read: () => Promise<TRead>;
  /** The row the caller read before: null (not mirrored) or undefined (not read) reads it again with `readMirror`. */
  mirrored: TRow | null | undefined;
  readMirror?: () => Promise<TRow | null>;
  warning: { fields: Record<string, unknown>; message: string };
  /** What to throw when nothing is mirrored either; the AppError of the failure by default. */
  unmirrored?: (error: unknown) => Promise<unknown>;
};

// A resource the gateway does not know reads as null; any other failure is thrown (a webhook's apply is retried).
export async function readOrNullWhenUnknown<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isGatewayNotFound(error)) return null;
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
