import "server-only";
import { z } from "zod";
import { db } from "@/lib/db/client";
import { resolveLocale, type Locale } from "@/lib/i18n/config";

export type Role = "ADMIN" | "STAFF";

export type CurrentUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  locale: Locale;
  // Set for a one-time password: every page sends the user to /account/password first.
  mustChangePassword: boolean;
};

// What the session JWT must carry for the user to be looked up again.
const ZSessionToken = z.object({ sub: z.uuid(), sessionVersion: z.number().int() });

// The token alone proves only that the user signed in once. The database decides whether the
// session still stands: a deactivated user, or one whose sessionVersion was bumped (role or
// password change, deactivation), is signed out on the very next request.
export async function loadSessionUser(token: unknown): Promise<CurrentUser | null> {
  const parsed = ZSessionToken.safeParse(token);
  if (!parsed.success) return null;
  const user = await db.user.findUnique({ where: { id: parsed.data.sub } });
  if (!user || !user.isActive || user.sessionVersion !== parsed.data.sessionVersion) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: resolveLocale(user.locale),
    mustChangePassword: user.mustChangePassword,
  };
}
