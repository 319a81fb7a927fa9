import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { getRequestContext } from "@/lib/auth/request-context";
import { authorize, type TCurrentUser, type TPermission } from "@/lib/auth/session";
import { rememberOwnWrite } from "@/lib/db/read-replica";
import { AppError, isAppError, type TAppErrorCode, type TMessageKey, type TMessageParams } from "@/lib/errors";
import { log } from "@/lib/log";
import { withSpan } from "@/lib/telemetry/tracing";
import { zodIssuesToFieldErrors } from "./field-errors";

export type TActionError = {
  code: TAppErrorCode;
  messageKey: TMessageKey;
  params?: TMessageParams;
  fieldErrors?: Record<string, string>;
};
export type TActionResult<T> = { ok: true; data: T } | { ok: false; error: TActionError };

export type TActionContext = { user: TCurrentUser; context: TChangeContext };

type ActionOptions<TSchema extends z.ZodType> = {
  schema: TSchema;
  // What the caller must hold; null is anyone signed in (their own account and preferences).
  permission: TPermission | null;
  allowPasswordChange?: boolean;
  allowTwoFactorEnrolment?: boolean;
};

function toActionError(error: unknown): TActionError {
  if (isAppError(error))
    return { code: error.code, messageKey: error.messageKey, params: error.params, fieldErrors: error.fieldErrors };
  log.error({ err: error }, "server action failed");
  return { code: "INTERNAL", messageKey: "errors.internal" };
}

function parseInput<TSchema extends z.ZodType>(schema: TSchema, input: unknown): z.output<TSchema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", "errors.codes.VALIDATION_FAILED", {
      fieldErrors: zodIssuesToFieldErrors(parsed.error.issues),
    });
  }
  return parsed.data;
}

// The session and permission are checked before the input is even read; redirect(), notFound() and friends pass through.
export function defineAction<TSchema extends z.ZodType, TData>(
  options: ActionOptions<TSchema>,
  handler: (input: z.output<TSchema>, action: TActionContext) => Promise<TData>,
): (input: z.input<TSchema>) => Promise<TActionResult<TData>> {
  const action = (input: z.input<TSchema>): Promise<TActionResult<TData>> =>
    withSpan("server action", actionAttributes(action, options.permission), async (span) => {
      try {
        const user = await authorize(options.permission, {
          allowPasswordChange: options.allowPasswordChange,
          allowTwoFactorEnrolment: options.allowTwoFactorEnrolment,
        });
        const data = parseInput(options.schema, input);
        const context: TChangeContext = { actor: { id: user.id, email: user.email }, ...(await getRequestContext()) };
        try {
          return { ok: true, data: await handler(data, { user, context }) };
        } finally {
          // Also when the handler redirects (it throws) or failed after writing.
          await rememberOwnWrite();
        }
      } catch (error) {
        unstable_rethrow(error);
        const actionError = toActionError(error);
        span.setAttribute("action.error", actionError.code);
        return { ok: false, error: actionError };
      }
    });
  return action;
}

// Next.js gives each exported action an id ($$id, in the build's server-reference manifest); there is no name at run time.
function actionAttributes(action: object, permission: TPermission | null) {
  return { "next.action.id": (action as { $$id?: string }).$$id ?? "", "action.permission": permission ?? "signed-in" };
}

export async function publicActionContext(): Promise<TChangeContext> {
  return { actor: null, ...(await getRequestContext()) };
}

export type TPublicActionContext = { context: TChangeContext };

// No session is required or read; the input is still parsed and failures still come back as a TActionError.
export function definePublicAction<TSchema extends z.ZodType, TData>(
  options: { schema: TSchema },
  handler: (input: z.output<TSchema>, action: TPublicActionContext) => Promise<TData>,
): (input: z.input<TSchema>) => Promise<TActionResult<TData>> {
  return async (input) => {
    try {
      const data = parseInput(options.schema, input);
      return { ok: true, data: await handler(data, { context: await publicActionContext() }) };
    } catch (error) {
      unstable_rethrow(error);
      return { ok: false, error: toActionError(error) };
    }
  };
}
