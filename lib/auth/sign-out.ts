import "server-only";
import { z } from "zod";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import type { TRequestContext } from "./request-context";

const ZSignOutToken = z.object({ sub: z.uuid(), email: z.string(), sessionVersion: z.number().int() });

// A JWT stays valid until it expires, so sign-out moves the user's sessionVersion on, ending every browser's session;
// only a current token moves it, so replaying an ended cookie changes nothing.
export async function endSession(token: unknown, context: TRequestContext): Promise<void> {
  const parsed = ZSignOutToken.safeParse(token);
  if (!parsed.success) return;
  const { sub, email, sessionVersion } = parsed.data;
  const ended = await db.user.updateMany({
    where: { id: sub, sessionVersion },
    data: { sessionVersion: { increment: 1 } },
  });
  if (ended.count === 0) return;
  await recordAudit({
    actor: { id: sub, email },
    action: "auth.sign_out",
    resourceType: "user",
    resourceId: sub,
    ip: context.ip,
    userAgent: context.userAgent,
  });
}
