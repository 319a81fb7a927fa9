import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { verifyStepUpCode } from "./two-factor";

// Dual control needs a real second person: not an admin the requester made, or whose factors they reset.
const newAdminCooldownMs = 24 * 60 * 60_000;

export type TApproverStanding =
  | { canApprove: true }
  | { canApprove: false; reason: "notAdmin" | "newAdmin" | "twoFactorRequired" };

type TApproverRow = { role: "ADMIN" | "STAFF"; isActive: boolean; createdAt: Date; totpEnabledAt: Date | null };

function standingOf(user: TApproverRow | null, now: Date): TApproverStanding {
  if (!user?.isActive || user.role !== "ADMIN") return { canApprove: false, reason: "notAdmin" };
  if (user.createdAt.getTime() > now.getTime() - newAdminCooldownMs) return { canApprove: false, reason: "newAdmin" };
  if (!user.totpEnabledAt) return { canApprove: false, reason: "twoFactorRequired" };
  return { canApprove: true };
}

const approverSelect = { role: true, isActive: true, createdAt: true, totpEnabledAt: true } as const;

export async function getApproverStanding(userId: string, now = new Date()): Promise<TApproverStanding> {
  return standingOf(await db.user.findUnique({ where: { id: userId }, select: approverSelect }), now);
}

const refuse = (reason: "notAdmin" | "ownRequest" | "newAdmin" | "twoFactorRequired") =>
  new AppError("FORBIDDEN", `approverCode.errors.${reason}`, { fieldErrors: { approver: reason } });

// A fresh code through the sign-in limiter, then used up, so it proves presence at this action.
export async function assertIndependentApprover(
  approval: { approverId: string; requesterId: string | null; code: string | undefined },
  context: TChangeContext,
  now = new Date(),
): Promise<void> {
  const { approverId, requesterId, code } = approval;
  const standing = standingOf(await db.user.findUnique({ where: { id: approverId }, select: approverSelect }), now);
  if (!standing.canApprove && standing.reason === "notAdmin") throw refuse("notAdmin");
  if (requesterId === approverId) throw refuse("ownRequest");
  if (!standing.canApprove) throw refuse(standing.reason);
  if (!code) {
    throw new AppError("VALIDATION_FAILED", "approverCode.errors.codeRequired", {
      fieldErrors: { code: "codeRequired" },
    });
  }
  await verifyStepUpCode(approverId, code, context, now);
}
