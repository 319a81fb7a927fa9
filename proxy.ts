import { type NextRequest, NextResponse } from "next/server";

import { buildSecurityHeaders, createNonce } from "@/lib/security/headers";

const sessionCookieNames = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const publicPaths = ["/login", "/login/sso", "/pay/", "/forgot-password", "/invite/", "/reset-password/"];

// Pages only (API routes skip the proxy and answer 401 themselves); files with an extension are public assets.
function needsSessionCookie(pathname: string): boolean {
  if (/\.[\w]+$/.test(pathname)) return false;
  return !publicPaths.some((path) => pathname === path || (path.endsWith("/") && pathname.startsWith(path)));
}

function withSecurityHeaders(response: NextResponse, headers: Record<string, string>): NextResponse {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

// Sets the security headers of every response, and turns away visitors with no session cookie at all.
// The turn-away proves nothing about the session: every page, action and route handler checks the user
// and role itself.
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const nonce = createNonce();
  const securityHeaders = buildSecurityHeaders({
    nonce,
    pathname,
    isHttps: process.env.APP_URL?.startsWith("https://") ?? false,
    isDevelopment: process.env.NODE_ENV === "development",
  });
  const hasSession = sessionCookieNames.some((name) => request.cookies.has(name));
  if (needsSessionCookie(pathname) && !hasSession) {
    const url = new URL("/login", request.url);
    if (pathname !== "/") url.searchParams.set("callbackUrl", `${pathname}${search}`);
    return withSecurityHeaders(NextResponse.redirect(url), securityHeaders);
  }
  const headers = new Headers(request.headers);
  // Next.js reads the nonce from the request's policy and puts it on the scripts it renders.
  headers.set("Content-Security-Policy", securityHeaders["Content-Security-Policy"]!);
  // Lets pages build /login?callbackUrl=… when the session turns out to be over (see requireUser).
  headers.set("x-pathname", `${pathname}${search}`);
  return withSecurityHeaders(NextResponse.next({ request: { headers } }), securityHeaders);
}

export const config = {
  // Everything but the hashed build assets, the image optimizer and the routes that answer data (/api, the POS
  // backend under /v1): their headers are in next.config.ts (apiRoutePrefixes, kept in step with this literal).
  matcher: ["/((?!_next/static/|_next/image|api/|v1/).*)"],
};
