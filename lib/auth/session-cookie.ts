import "server-only";
import { serverEnv } from "@/lib/config/server-env";

export const sessionMaxAgeSeconds = 12 * 60 * 60;

export function getSessionCookie(): { name: string; isSecure: boolean } {
  const isSecure = serverEnv.APP_URL.startsWith("https://");
  return { name: `${isSecure ? "__Secure-" : ""}next-auth.session-token`, isSecure };
}
