import "server-only";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { TPermission } from "./permissions";
import { permissionsOfRole } from "./roles";
import { verifyStepUpCode } from "./two-factor";

// Dual control needs a real second person: not an admin the requester made, or whose factors they reset.
const newAdminCooldownMs = 24 * 60 * 60_000;

export type TApproverStanding =
  | { canApprove: true }
  | { canApprove: false; reason: "notApprover" | "newAdmin" | "twoFactorRequired" };

type TApproverRow = {
  roleId: string;
  role: { permissions: string[] };
  isActive: boolean;
  createdAt: Date;
  totpEnabledAt: Date | null;
};

function standingOf(user: TApproverRow | null, permission: TPermission, now: Date): TApproverStanding {
  if (!user?.isActive || !permissionsOfRole(user.roleId, user.role.permissions).includes(permission)) {
    return { canApprove: false, reason: "notApprover" };
  }
  if (user.createdAt.getTime() > now.getTime() - newAdminCooldownMs) return { canApprove: false, reason: "newAdmin" };
  if (!user.totpEnabledAt) return { canApprove: false, reason: "twoFactorRequired" };
  return { canApprove: true };
}

const approverSelect = {
  roleId: true,
  role: { select: { permissions: true } },
  isActive: true,
  createdAt: true,
  totpEnabledAt: true,
} as const;

// `permission` is what the decision needs: refunds.approve for money, users.manage for a change to people.
export async function getApproverStanding(
  userId: string,
  permission: TPermission,
  now = new Date(),
): Promise<TApproverStanding> {
  return standingOf(await db.user.findUnique({ where: { id: userId }, select: approverSelect }), permission, now);
}

const refuse = (reason: "notApprover" | "ownRequest" | "newAdmin" | "twoFactorRequired") =>
  new AppError("FORBIDDEN", `approverCode.errors.${reason}`, { fieldErrors: { approver: reason } });

// A fresh code through the sign-in limiter, then used up, so it proves presence at this action.
export async function assertIndependentApprover(
  approval: { approverId: string; requesterId: string | null; code: string | undefined; permission: TPermission },
  context: TChangeContext,
  now = new Date(),
): Promise<void> {
  const { approverId, requesterId, code, permission } = approval;
  const approver = await db.user.findUnique({ where: { id: approverId }, select: approverSelect });
  const standing = standingOf(approver, permission, now);
  if (!standing.canApprove && standing.reason === "notApprover") throw refuse("notApprover");
  if (requesterId === approverId) throw refuse("ownRequest");
  if (!standing.canApprove) throw refuse(standing.reason);
  if (!code) {
    throw new AppError("VALIDATION_FAILED", "approverCode.errors.codeRequired", {
      fieldErrors: { code: "codeRequired" },
    });
  }
  await verifyStepUpCode(approverId, code, context, now);
}
