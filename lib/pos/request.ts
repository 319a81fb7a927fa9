import "server-only";
import type { z } from "zod";
import { PosApiError } from "./errors";
import { describeZodIssue } from "./schemas";

const maxBodyBytes = 16 * 1024;

// The JSON body, checked by `schema`: 400 when it is not JSON (or too large), 422 naming the first bad field.
export async function readPosBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBodyBytes) {
    throw new PosApiError(413, "body_too_large", "body larger than 16 KiB");
  }
  const text = await request.text();
  if (text.length > maxBodyBytes) throw new PosApiError(413, "body_too_large", "body larger than 16 KiB");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PosApiError(400, "body_not_json", "body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new PosApiError(422, "validation", describeZodIssue(parsed.error, json));
  return parsed.data;
}
