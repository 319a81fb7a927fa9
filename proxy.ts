import { type NextRequest, NextResponse } from "next/server";

const sessionCookieNames = ["next-auth.session-token", "__Secure-next-auth.session-token"];
const publicPaths = ["/login", "/pay/"];

// A quick turn-away for visitors with no session cookie at all. It proves nothing about the
// session: every page, action and route handler checks the user and role itself.
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const isPublic = publicPaths.some((path) => pathname === path || (path.endsWith("/") && pathname.startsWith(path)));
  const hasSession = sessionCookieNames.some((name) => request.cookies.has(name));
  if (!isPublic && !hasSession) {
    const url = new URL("/login", request.url);
    if (pathname !== "/") url.searchParams.set("callbackUrl", `${pathname}${search}`);
    return NextResponse.redirect(url);
  }
  // Lets pages build /login?callbackUrl=… when the session turns out to be over (see requireUser).
  const headers = new Headers(request.headers);
  headers.set("x-pathname", `${pathname}${search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  // Not for API routes (each answers 401 itself), Next's assets, or files with an extension.
  matcher: ["/((?!api/|_next/|.*\\.[\\w]+$).*)"],
};
