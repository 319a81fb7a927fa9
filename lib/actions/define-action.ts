import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { getRequestContext } from "@/lib/auth/request-context";
import { authorize, type TCurrentUser } from "@/lib/auth/session";
import { AppError, isAppError, type TAppErrorCode } from "@/lib/errors";
import { log } from "@/lib/log";

export type TActionError = { code: TAppErrorCode; message: string; fieldErrors?: Record<string, string> };
export type TActionResult<T> = { ok: true; data: T } | { ok: false; error: TActionError };

/** What a handler gets besides its input: the signed-in user, and who/where for the audit log. */
export type TActionContext = { user: TCurrentUser; context: TChangeContext };

type ActionOptions<TSchema extends z.ZodType> = {
  schema: TSchema;
  role?: "ADMIN";
  allowPasswordChange?: boolean;
  allowTwoFactorEnrolment?: boolean;
};

function toFieldErrors(error: z.ZodError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) fieldErrors[issue.path.join(".") || "form"] ??= issue.message;
  return fieldErrors;
}

function toActionError(error: unknown): TActionError {
  if (isAppError(error)) return { code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  log.error({ err: error }, "server action failed");
  return { code: "INTERNAL", message: "Something went wrong." };
}

// The session and role are checked before the input is even read; redirect(), notFound() and friends pass through.
export function defineAction<TSchema extends z.ZodType, TData>(
  options: ActionOptions<TSchema>,
  handler: (input: z.output<TSchema>, action: TActionContext) => Promise<TData>,
): (input: z.input<TSchema>) => Promise<TActionResult<TData>> {
  return async (input) => {
    try {
      const user = await authorize(options.role, {
        allowPasswordChange: options.allowPasswordChange,
        allowTwoFactorEnrolment: options.allowTwoFactorEnrolment,
      });
      const parsed = options.schema.safeParse(input);
      if (!parsed.success) {
        throw new AppError("VALIDATION_FAILED", "Check the highlighted fields.", {
          fieldErrors: toFieldErrors(parsed.error),
        });
      }
      const context: TChangeContext = { actor: { id: user.id, email: user.email }, ...(await getRequestContext()) };
      return { ok: true, data: await handler(parsed.data, { user, context }) };
    } catch (error) {
      unstable_rethrow(error);
      return { ok: false, error: toActionError(error) };
    }
  };
}
