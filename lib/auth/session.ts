import "server-only";
import { cookies, headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { encode } from "next-auth/jwt";
import { cache } from "react";
import { serverEnv } from "@/lib/config/server-env";
import { AppError } from "@/lib/errors";
import { getSessionCookie, sessionMaxAgeSeconds } from "./session-cookie";
import { decodeSessionToken } from "./session-token";
import { loadSessionUser, type TCurrentUser, type TRole } from "./session-user";

export type { TCurrentUser, TRole };

// Path of the page being rendered, set by proxy.ts, so a sign-in can come back to it.
export const pathnameHeader = "x-pathname";

type GuardOptions = {
  // Only the password-change page and action: a user holding a one-time password may reach nothing else.
  allowPasswordChange?: boolean;
  // Only the two-factor page and its actions, for a user the admin setting requires to enrol.
  allowTwoFactorEnrolment?: boolean;
};

// The password comes first: a user who must do both is sent to /account/password, then here.
function mustEnrollFirst(user: TCurrentUser, options: GuardOptions): boolean {
  return user.mustEnrollTwoFactor && !user.mustChangePassword && !options.allowTwoFactorEnrolment;
}

// Once per request (React cache), and never trusted from the token alone: see loadSessionUser.
export const getCurrentUser = cache(async (): Promise<TCurrentUser | null> => {
  const value = (await cookies()).get(getSessionCookie().name)?.value;
  if (!value) return null;
  const token = decodeSessionToken(value, serverEnv.AUTH_SECRET);
  return token ? loadSessionUser(token) : null;
});

function isLocalPath(path: string | null): path is string {
  return !!path && path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");
}

async function signInUrl(): Promise<string> {
  const path = (await headers()).get(pathnameHeader);
  return isLocalPath(path) && path !== "/" ? `/login?callbackUrl=${encodeURIComponent(path)}` : "/login";
}

export async function requireUser(options: GuardOptions = {}): Promise<TCurrentUser> {
  const user = await getCurrentUser();
  if (!user) redirect(await signInUrl());
  if (user.mustChangePassword && !options.allowPasswordChange) redirect("/account/password");
  if (mustEnrollFirst(user, options)) redirect("/account/security");
  return user;
}

export async function requireAdmin(): Promise<TCurrentUser> {
  const user = await requireUser();
  if (user.role !== "ADMIN") forbidden();
  return user;
}

// For server actions and route handlers: throws, and the caller maps the error to its answer.
export async function authorize(role?: "ADMIN", options: GuardOptions = {}): Promise<TCurrentUser> {
  const user = await getCurrentUser();
  if (!user) throw new AppError("UNAUTHENTICATED", "Sign in to continue.");
  if (user.mustChangePassword && !options.allowPasswordChange) {
    throw new AppError("FORBIDDEN", "Change your one-time password first.");
  }
  if (mustEnrollFirst(user, options)) throw new AppError("FORBIDDEN", "Set up two-factor sign-in first.");
  if (role === "ADMIN" && user.role !== "ADMIN") throw new AppError("FORBIDDEN", "Only admins can do this.");
  return user;
}

// After the user's own password change, this browser keeps its session while every other one ends.
export async function renewSession(
  user: Pick<TCurrentUser, "id" | "email" | "name" | "role">,
  sessionVersion: number,
): Promise<void> {
  const { name, isSecure } = getSessionCookie();
  const token = await encode({
    token: { sub: user.id, email: user.email, name: user.name, role: user.role, sessionVersion },
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
