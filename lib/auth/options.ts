import "server-only";
import { cookies } from "next/headers";
import type { AuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { serverEnv } from "@/lib/config/server-env";
import { localeCookieName, resolveLocale } from "@/lib/i18n/config";
import { resolveTheme, themeCookieName } from "@/lib/theme/config";
import { toSameOriginPath } from "./callback-url";
import { readOrIssueDeviceId, recordSignInDevice } from "./known-devices";
import { ZAuthenticationResponseText } from "./passkey-assertion";
import { signInWithPasskey } from "./passkey-sign-in";
import { getRequestContext, readRequestContext, type TRequestContext } from "./request-context";
import { startSessionActivity } from "./session-activity";
import { sessionMaxAgeSeconds } from "./session-cookie";
import { signInWithPassword, type TSignInResult } from "./sign-in";
import {
  formatRateLimitedError,
  formatTwoFactorRequiredError,
  passkeyCounterRegressedError,
  ssoRequiredError,
} from "./sign-in-error";
import { endSession } from "./sign-out";
import { signInWithSsoTicket } from "./sso-sign-in";

const ZCredentials = z.object({
  email: z.string().max(254),
  password: z.string().max(128),
  code: z.string().max(32).optional(),
  // The second factor as a passkey assertion instead of a code.
  passkey: ZAuthenticationResponseText.optional(),
});

const ZPasskeyCredentials = z.object({ response: ZAuthenticationResponseText });

const ZSsoCredentials = z.object({ ticket: z.string().min(1).max(100) });

// The one way a sign-in result becomes a next-auth answer, whichever provider produced it.
async function toSessionUser(result: TSignInResult): Promise<User | null> {
  if (result.status === "rate-limited") throw new Error(formatRateLimitedError(result.retryAfterSeconds));
  if (result.status === "two-factor-required") throw new Error(formatTwoFactorRequiredError(result.methods));
  if (result.status === "passkey-counter-regressed") throw new Error(passkeyCounterRegressedError);
  if (result.status === "sso-required") throw new Error(ssoRequiredError);
  if (result.status === "invalid") return null;
  (await cookies()).set(localeCookieName, resolveLocale(result.user.locale), {
    path: "/",
    sameSite: "lax",
    maxAge: 365 * 24 * 60 * 60,
  });
  (await cookies()).set(themeCookieName, resolveTheme(result.user.theme), {
    path: "/",
    sameSite: "lax",
    maxAge: 365 * 24 * 60 * 60,
  });
  const { id, email, name, sessionVersion } = result.user;
  return { id, email, name, sessionVersion };
}

// A provider whose one text field is the whole credential; an SSO session is marked so (`amr` in the jwt callback).
function oneFieldProvider<TInput>(
  id: "passkey" | "sso",
  field: string,
  schema: z.ZodType<TInput>,
  signIn: (input: TInput, context: TRequestContext) => Promise<TSignInResult>,
) {
  return CredentialsProvider({
    id,
    name: id,
    credentials: { [field]: { type: "text" } },
    async authorize(credentials, request) {
      const parsed = schema.safeParse(credentials);
      if (!parsed.success) return null;
      const user = await toSessionUser(await signIn(parsed.data, readRequestContext(request.headers ?? {})));
      return user && (id === "sso" ? { ...user, isSso: true } : user);
    },
  });
}

let authOptions: AuthOptions | undefined;

// Built on first use, not at import, so a build without AUTH_SECRET does not fail here.
export function getAuthOptions(): AuthOptions {
  if (authOptions) return authOptions;
  // next-auth builds its redirect URLs and picks secure cookies from NEXTAUTH_URL.
  process.env.NEXTAUTH_URL ??= serverEnv.APP_URL;
  authOptions = {
    secret: serverEnv.AUTH_SECRET,
    // Credentials cannot use database sessions: the user is re-read per request, so deactivation is immediate.
    session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds },
    jwt: { maxAge: sessionMaxAgeSeconds },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "credentials",
        credentials: {
          email: { type: "email" },
          password: { type: "password" },
          code: { type: "text" },
          passkey: { type: "text" },
        },
        async authorize(credentials, request) {
          const parsed = ZCredentials.safeParse(credentials);
          if (!parsed.success) return null;
          return toSessionUser(await signInWithPassword(parsed.data, readRequestContext(request.headers ?? {})));
        },
      }),
      // A passkey alone (user verification required) is both factors; the session that follows is a password's.
      oneFieldProvider("passkey", "response", ZPasskeyCredentials, ({ response }, context) =>
        signInWithPasskey(response, context),
      ),
      // The one-time ticket of a finished single sign-on (lib/sso/flow.ts): the provider did both factors.
      oneFieldProvider("sso", "ticket", ZSsoCredentials, ({ ticket }, context) => signInWithSsoTicket(ticket, context)),
    ],
    callbacks: {
      // next-auth's default accepts any URL that starts with "/", tabs and backslashes included.
      redirect({ url, baseUrl }) {
        return new URL(toSameOriginPath(url, baseUrl), baseUrl).toString();
      },
      async jwt({ token, user }) {
        // `user` is present only at sign-in: the session's id and start are set once, and kept when next-auth
        // re-issues the cookie (a new jti and iat), so re-issuing never restarts the idle clock.
        // Every way of signing in passes here, so a new device is noticed (and mailed) whatever the provider.
        if (user) {
          await recordSignInDevice(user.id, await readOrIssueDeviceId(), await getRequestContext());
          const session = await startSessionActivity(user.id);
          return { ...token, sessionVersion: user.sessionVersion, ...session, ...(user.isSso ? { amr: "sso" } : {}) };
        }
        if (!token.sid && typeof token.jti === "string" && typeof token.iat === "number") {
          return { ...token, sid: token.jti, sessionStartedAt: token.iat };
        }
        return token;
      },
    },
    events: {
      async signOut({ token }) {
        await endSession(token, await getRequestContext());
      },
    },
  };
  return authOptions;
}
