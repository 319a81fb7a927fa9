import "server-only";
import { z } from "zod";
import { runSql } from "@/lib/db/sql";
import { resolveLocale, type TLocale } from "@/lib/i18n/config";
import { isTwoFactorRequiredFor, readAppSetting } from "@/lib/settings/app-settings";
import type { TPermission } from "./permissions";
import { permissionsOfRole } from "./roles";
import {
  sessionActivityColumns,
  sessionActivityValues,
  type TSessionActivityFlags,
  touchSessionActivity,
} from "./session-activity";

export type TCurrentUser = {
  id: string;
  email: string;
  name: string;
  roleId: string;
  roleName: string | null;
  permissions: readonly TPermission[];
  locale: TLocale;
  mustChangePassword: boolean;
  mustEnrollTwoFactor: boolean;
};

// A token from before `sid` and `sessionStartedAt` falls back to next-auth's own `jti` and `iat`.
const ZSessionToken = z
  .object({
    sub: z.uuid(),
    sessionVersion: z.number().int(),
    sid: z.string().min(1).max(100).optional(),
    jti: z.string().min(1).max(100).optional(),
    sessionStartedAt: z.number().optional(),
    iat: z.number().optional(),
    amr: z.literal("sso").optional().catch(undefined),
  })
  .transform(({ sub, sessionVersion, sid, jti, sessionStartedAt, iat, amr }) => ({
    sub,
    sessionVersion,
    sessionId: sid ?? jti,
    startedAtSeconds: sessionStartedAt ?? iat,
    isSso: amr === "sso",
  }))
  .refine((token) => token.sessionId !== undefined && token.startedAtSeconds !== undefined);

export type TSessionState = { status: "active"; user: TCurrentUser } | { status: "idle" } | { status: "none" };

// The token only proves a past sign-in: a deactivated user, a bumped sessionVersion (role or password change) or an
// idle session is signed out on the very next request.
export async function loadSession(token: unknown, now = new Date()): Promise<TSessionState> {
  const parsed = ZSessionToken.safeParse(token);
  if (!parsed.success) return { status: "none" };
  const { sub, sessionVersion, sessionId, startedAtSeconds, isSso } = parsed.data as {
    sub: string;
    sessionVersion: number;
    sessionId: string;
    startedAtSeconds: number;
    isSso: boolean;
  };
  const startedAt = new Date(startedAtSeconds * 1000);
  // Raw SQL: this runs on every request of a signed-in user (lib/db/sql.ts says why).
  const [user] = await runSql<
    Pick<TCurrentUser, "id" | "email" | "name" | "roleId" | "roleName" | "mustChangePassword"> & {
      rolePermissions: string[] | null;
      locale: string;
      isActive: boolean;
      sessionVersion: number;
      hasTwoFactor: boolean;
      twoFactorRequirement: unknown;
    } & TSessionActivityFlags
  >(
    `SELECT u.id::text AS id, email, u.name, "roleId", r.name AS "roleName", r.permissions AS "rolePermissions", "isActive", "sessionVersion",
       "mustChangePassword", locale,
       ("totpEnabledAt" IS NOT NULL OR EXISTS (SELECT 1 FROM "Passkey" p WHERE p."userId" = u.id)) AS "hasTwoFactor",
       (SELECT value FROM "AppSetting" WHERE key = 'twoFactorRequirement') AS "twoFactorRequirement",
       ${sessionActivityColumns}
     FROM "User" u JOIN "Role" r ON r.id = u."roleId" WHERE u.id = $1::uuid`,
    [sub, ...sessionActivityValues(sessionId, startedAt, now)],
  );
  if (!user?.isActive || user.sessionVersion !== sessionVersion) return { status: "none" };
  if (user.isIdle) return { status: "idle" };
  if (user.isActivityStale) await touchSessionActivity(sessionId, user.id, now);
  const permissions = permissionsOfRole(user.roleId, user.rolePermissions);
  return {
    status: "active",
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      roleId: user.roleId,
      roleName: user.roleName,
      permissions,
      locale: resolveLocale(user.locale),
      mustChangePassword: user.mustChangePassword,
      mustEnrollTwoFactor:
        !isSso &&
        !user.hasTwoFactor &&
        isTwoFactorRequiredFor(readAppSetting("twoFactorRequirement", user.twoFactorRequirement), permissions),
    },
  };
}

export async function loadSessionUser(token: unknown, now = new Date()): Promise<TCurrentUser | null> {
  const session = await loadSession(token, now);
  return session.status === "active" ? session.user : null;
}
