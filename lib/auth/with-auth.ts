import "server-only";
import { isAppError } from "@/lib/errors";
import { englishErrorText } from "@/lib/i18n/error-text";
import { log } from "@/lib/log";
import { setActiveSpanAttributes } from "@/lib/telemetry/tracing";
import { authorize, type TCurrentUser, type TPermission } from "./session";

export type TApiErrorBody = { error: { code: string; message: string; fieldErrors?: Record<string, string> } };

function apiErrorResponse(error: unknown): Response {
  if (isAppError(error)) {
    // Machines read the code; the message stays the English sentence documented for API clients.
    const message = englishErrorText(error);
    const body: TApiErrorBody = { error: { code: error.code, message, fieldErrors: error.fieldErrors } };
    return Response.json(body, { status: error.status });
  }
  log.error({ err: error }, "route handler failed");
  const body: TApiErrorBody = {
    error: { code: "INTERNAL", message: englishErrorText({ messageKey: "errors.internal" }) },
  };
  return Response.json(body, { status: 500 });
}

type RouteContext<TParams> = { params: Promise<TParams> };
type AuthedHandler<TParams> = (request: Request, context: { user: TCurrentUser; params: TParams }) => Promise<Response>;

export function withAuth<TParams = Record<string, never>>(
  handler: AuthedHandler<TParams>,
  options: { permission: TPermission | null },
) {
  return async (request: Request, context: RouteContext<TParams>): Promise<Response> => {
    setActiveSpanAttributes({ "action.permission": options.permission ?? "signed-in" });
    try {
      const user = await authorize(options.permission);
      return await handler(request, { user, params: await context.params });
    } catch (error) {
      return apiErrorResponse(error);
    }
  };
}
