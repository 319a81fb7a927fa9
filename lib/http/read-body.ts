import "server-only";
import { NextRequest } from "next/server";
import type { TApiErrorBody } from "@/lib/auth/with-auth";

export type TCappedBody = { kind: "ok"; bytes: Buffer } | { kind: "too_large"; bytes: number };

export { bodyLimits } from "./body-limits";

export function declaredBodyLength(request: Request): number | null {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : null;
}

// Raw bytes: decoding would alter invalid UTF-8 a signature covers.
export async function readCappedBody(request: Request, maxBytes: number): Promise<TCappedBody> {
  const declared = declaredBodyLength(request);
  if (declared !== null && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    return { kind: "too_large", bytes: declared };
  }
  if (!request.body) return { kind: "ok", bytes: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      return { kind: "too_large", bytes: total };
    }
    chunks.push(value);
  }
  return { kind: "ok", bytes: Buffer.concat(chunks, total) };
}

function bodyTooLargeResponse(maxBytes: number): Response {
  const body: TApiErrorBody = {
    error: { code: "PAYLOAD_TOO_LARGE", message: `Request body larger than ${maxBytes} bytes.` },
  };
  return Response.json(body, { status: 413 });
}

export async function withCappedBody(request: NextRequest, maxBytes: number): Promise<NextRequest | Response> {
  if (!request.body) return request;
  const body = await readCappedBody(request, maxBytes);
  if (body.kind === "too_large") return bodyTooLargeResponse(maxBytes);
  return new NextRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: new Uint8Array(body.bytes),
  });
}
