import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { authorize, type CurrentUser } from "@/lib/auth/session";
import { AppError, type AppErrorCode, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";

export type ActionError = { code: AppErrorCode; message: string; fieldErrors?: Record<string, string> };
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ActionError };

type ActionOptions<TSchema extends z.ZodType> = {
  schema: TSchema;
  role?: "ADMIN";
  allowPasswordChange?: boolean;
};

function toFieldErrors(error: z.ZodError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) fieldErrors[issue.path.join(".") || "form"] ??= issue.message;
  return fieldErrors;
}

function toActionError(error: unknown): ActionError {
  if (isAppError(error)) return { code: error.code, message: error.message, fieldErrors: error.fieldErrors };
  log.error({ err: error }, "server action failed");
  return { code: "INTERNAL", message: "Something went wrong." };
}

// Every server action: checks the session and role first (before even reading the input), parses
// the input with zod, and turns failures into a result the form can show. redirect(), notFound()
// and friends pass through untouched.
export function defineAction<TSchema extends z.ZodType, TData>(
  options: ActionOptions<TSchema>,
  handler: (input: z.output<TSchema>, user: CurrentUser) => Promise<TData>,
): (input: z.input<TSchema>) => Promise<ActionResult<TData>> {
  return async (input) => {
    try {
      const user = await authorize(options.role, { allowPasswordChange: options.allowPasswordChange });
      const parsed = options.schema.safeParse(input);
      if (!parsed.success) {
        throw new AppError("VALIDATION_FAILED", "Check the highlighted fields.", {
          fieldErrors: toFieldErrors(parsed.error),
        });
      }
      return { ok: true, data: await handler(parsed.data, user) };
    } catch (error) {
      unstable_rethrow(error);
      return { ok: false, error: toActionError(error) };
    }
  };
}
