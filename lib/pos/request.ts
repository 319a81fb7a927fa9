import "server-only";
import type { z } from "zod";
import { bodyLimits, readCappedBody } from "@/lib/http/read-body";
import { PosApiError } from "./errors";
import { describeZodIssue } from "./schemas";

const maxBodyBytes = bodyLimits.pos;
// TextDecoder, as Request.text() did: a leading BOM is dropped. One for all calls: a whole decode keeps no state.
const utf8 = new TextDecoder();

// Counted while streaming, so a chunked body without Content-Length is cut off too.
export async function readPosBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const body = await readCappedBody(request, maxBodyBytes);
  if (body.kind === "too_large") throw new PosApiError(413, "body_too_large", "body larger than 16 KiB");
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(body.bytes));
  } catch {
    throw new PosApiError(400, "body_not_json", "body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new PosApiError(422, "validation", describeZodIssue(parsed.error, json));
  return parsed.data;
}
