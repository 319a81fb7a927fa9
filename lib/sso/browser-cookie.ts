import "server-only";
import type { NextResponse } from "next/server";
import { serverEnv } from "@/lib/config/server-env";
import { ssoErrorPrefix, type TSsoRefusal } from "./refusals";

// Ties a trip to the provider to the browser that started it (lib/sso/flow.ts); sent back on the top-level GET.
export const ssoBrowserCookie = "sso-browser";
const cookiePath = "/api/auth/sso";

export function setSsoBrowserCookie(response: NextResponse, value: string | null): NextResponse {
  response.cookies.set(ssoBrowserCookie, value ?? "", {
    path: cookiePath,
    httpOnly: true,
    sameSite: "lax",
    secure: serverEnv.APP_URL.startsWith("https://"),
    maxAge: value ? 10 * 60 : 0,
  });
  return response;
}

export function ssoRefusalUrl(reason: TSsoRefusal): URL {
  const url = new URL("/login", serverEnv.APP_URL);
  url.searchParams.set("error", `${ssoErrorPrefix}${reason}`);
  return url;
}
