import { type NextRequest, NextResponse } from "next/server";
import { getRequestContext } from "@/lib/auth/request-context";
import { serverEnv } from "@/lib/config/server-env";
import { setSsoBrowserCookie, ssoBrowserCookie, ssoRefusalUrl } from "@/lib/sso/browser-cookie";
import { finishSsoSignIn, ssoCallbackPath } from "@/lib/sso/flow";

export const dynamic = "force-dynamic";

// GET /api/auth/sso/callback – public: the provider's answer; a one-time ticket for /login/sso, or the refusal.
export async function GET(request: NextRequest) {
  // The token request must name the redirect URI the provider saw, whatever host the server listens on.
  const callbackUrl = new URL(`${ssoCallbackPath}${request.nextUrl.search}`, serverEnv.APP_URL);
  const outcome = await finishSsoSignIn(
    callbackUrl,
    request.cookies.get(ssoBrowserCookie)?.value,
    await getRequestContext(),
  );
  // In the fragment, so the ticket never reaches a server log or a Referer.
  const target =
    outcome.status === "ticket"
      ? new URL(`/login/sso#${outcome.ticket}`, serverEnv.APP_URL)
      : ssoRefusalUrl(outcome.reason);
  return setSsoBrowserCookie(NextResponse.redirect(target, 303), null);
}
