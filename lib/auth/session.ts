import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { encode } from "next-auth/jwt";
import { cache } from "react";
import { serverEnv } from "@/lib/config/server-env";
import { AppError } from "@/lib/errors";
import { can, type TPermission } from "./permissions";
import { startSessionActivity } from "./session-activity";
import { getSessionCookie, sessionMaxAgeSeconds } from "./session-cookie";
import { decodeSessionToken } from "./session-token";
import { loadSession, type TCurrentUser, type TSessionState } from "./session-user";

export type { TCurrentUser, TPermission };

const pathnameHeader = "x-pathname";

type GuardOptions = {
  // Only the password-change page and action: a user holding a one-time password may reach nothing else.
  allowPasswordChange?: boolean;
  allowTwoFactorEnrolment?: boolean;
};

function mustEnrollFirst(user: TCurrentUser, options: GuardOptions): boolean {
  return user.mustEnrollTwoFactor && !user.mustChangePassword && !options.allowTwoFactorEnrolment;
}

const getSessionState = cache(async (): Promise<TSessionState> => {
  const value = (await cookies()).get(getSessionCookie().name)?.value;
  if (!value) return { status: "none" };
  const token = decodeSessionToken(value, serverEnv.AUTH_SECRET);
  return token ? loadSession(token) : { status: "none" };
});

export async function getCurrentUser(): Promise<TCurrentUser | null> {
  const session = await getSessionState();
  return session.status === "active" ? session.user : null;
}

function isLocalPath(path: string | null): path is string {
  return !!path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}

async function signInUrl(reason: "idle" | null): Promise<string> {
  const path = (await headers()).get(pathnameHeader);
  const query = new URLSearchParams();
  if (reason) query.set("reason", reason);
  if (isLocalPath(path) && path !== "/") query.set("callbackUrl", path);
  return query.size > 0 ? `/login?${query}` : "/login";
}

export async function requireUser(options: GuardOptions = {}): Promise<TCurrentUser> {
  const session = await getSessionState();
  if (session.status !== "active") redirect(await signInUrl(session.status === "idle" ? "idle" : null));
  const { user } = session;
  if (user.mustChangePassword && !options.allowPasswordChange) redirect("/account/password");
  if (mustEnrollFirst(user, options)) redirect("/account/security");
  return user;
}

// Pages: a person without the permission gets the 403 page.
export async function requirePermission(permission: TPermission): Promise<TCurrentUser> {
  const user = await requireUser();
  if (!can(user, permission)) forbidden();
  return user;
}

// Actions and route handlers: `null` is any signed-in person (their own account, their language).
export async function authorize(permission: TPermission | null, options: GuardOptions = {}): Promise<TCurrentUser> {
  const session = await getSessionState();
  if (session.status === "idle") {
    throw new AppError("UNAUTHENTICATED", "errors.auth.idleTimeout");
  }
  if (session.status !== "active") throw new AppError("UNAUTHENTICATED", "errors.auth.signInRequired");
  const { user } = session;
  if (user.mustChangePassword && !options.allowPasswordChange) {
    throw new AppError("FORBIDDEN", "errors.auth.passwordChangeRequired");
  }
  if (mustEnrollFirst(user, options)) throw new AppError("FORBIDDEN", "errors.auth.twoFactorEnrolmentRequired");
  if (permission && !can(user, permission)) {
    throw new AppError("FORBIDDEN", "errors.auth.permissionRequired", { params: { permission } });
  }
  return user;
}

// This browser keeps a session (a new one, active now) while every other one ends.
export async function renewSession(
  user: Pick<TCurrentUser, "id" | "email" | "name">,
  sessionVersion: number,
): Promise<void> {
  const { name, isSecure } = getSessionCookie();
  const session = await startSessionActivity(user.id);
  const token = await encode({
    token: { sub: user.id, email: user.email, name: user.name, sessionVersion, ...session },
    secret: serverEnv.AUTH_SECRET,
    maxAge: sessionMaxAgeSeconds,
  });
  (await cookies()).set(name, token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isSecure,
    maxAge: sessionMaxAgeSeconds,
  });
}
