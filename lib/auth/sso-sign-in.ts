import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { hashLinkToken } from "./link-token";
import type { TRequestContext } from "./request-context";
import { completeSignIn, type TSignInResult } from "./sign-in";

// The identity provider did the authentication (both factors): the ticket only carries its answer to next-auth.
export async function signInWithSsoTicket(
  ticket: string,
  context: TRequestContext,
  now = new Date(),
): Promise<TSignInResult> {
  const tokenHash = hashLinkToken(ticket);
  const { count } = await db.ssoSignInTicket.updateMany({
    where: { tokenHash, consumedAt: null, expiresAt: { gt: now } },
    data: { consumedAt: now },
  });
  const user =
    count > 0 ? (await db.ssoSignInTicket.findUnique({ where: { tokenHash }, include: { user: true } }))?.user : null;
  if (!user?.isActive) {
    await recordAudit({
      actor: user ? { id: user.id, email: user.email } : null,
      action: "auth.sign_in_failed",
      resourceType: "user",
      resourceId: user?.id,
      ip: context.ip,
      userAgent: context.userAgent,
      metadata: { method: "sso", reason: user ? "inactive" : "invalid_ticket" },
    });
    return { status: "invalid" };
  }
  return completeSignIn(user, context, now, { method: "sso" });
}
