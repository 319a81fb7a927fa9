import "server-only";
import { z } from "zod";
import { runSql } from "@/lib/db/sql";
import { resolveLocale, type TLocale } from "@/lib/i18n/config";
import { isTwoFactorRequiredFor, readAppSetting } from "@/lib/settings/app-settings";

export type TRole = "ADMIN" | "STAFF";

export type TCurrentUser = {
  id: string;
  email: string;
  name: string;
  role: TRole;
  locale: TLocale;
  // Set for a one-time password: every page sends the user to /account/password first.
  mustChangePassword: boolean;
  // Two-factor sign-in is required of this user (admin setting) and not set up: every page sends them to
  // /account/security first.
  mustEnrollTwoFactor: boolean;
};

const ZSessionToken = z.object({ sub: z.uuid(), sessionVersion: z.number().int() });

// The token only proves a past sign-in: a deactivated user, or one whose sessionVersion was bumped (role or
// password change), is signed out on the very next request.
export async function loadSessionUser(token: unknown): Promise<TCurrentUser | null> {
  const parsed = ZSessionToken.safeParse(token);
  if (!parsed.success) return null;
  // Raw SQL: this runs on every request of a signed-in user (lib/db/sql.ts says why).
  const [user] = await runSql<
    Pick<TCurrentUser, "id" | "email" | "name" | "role" | "mustChangePassword"> & {
      locale: string;
      isActive: boolean;
      sessionVersion: number;
      hasTwoFactor: boolean;
      twoFactorRequirement: unknown;
    }
  >(
    `SELECT id::text AS id, email, name, role::text AS role, "isActive", "sessionVersion", "mustChangePassword", locale,
       "totpEnabledAt" IS NOT NULL AS "hasTwoFactor",
       (SELECT value FROM "AppSetting" WHERE key = 'twoFactorRequirement') AS "twoFactorRequirement"
     FROM "User" WHERE id = $1::uuid`,
    [parsed.data.sub],
  );
  if (!user?.isActive || user.sessionVersion !== parsed.data.sessionVersion) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: resolveLocale(user.locale),
    mustChangePassword: user.mustChangePassword,
    mustEnrollTwoFactor:
      !user.hasTwoFactor &&
      isTwoFactorRequiredFor(readAppSetting("twoFactorRequirement", user.twoFactorRequirement), user.role),
  };
}
