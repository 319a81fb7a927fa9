import "server-only";
import { builtInRolesHolding } from "@/lib/auth/roles";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import { sendMail } from "@/lib/mail/send";

export type TApprovalRecipient = { id: string; email: string; name: string; locale: string };

// Who is told that a request waits: whose role may decide it, never the requester (who cannot approve their own).
export async function approverRecipients({ requesterId }: { requesterId: string }): Promise<TApprovalRecipient[]> {
  return db.user.findMany({
    where: {
      isActive: true,
      id: { not: requesterId },
      OR: [
        { roleId: { in: builtInRolesHolding("refunds.approve") } },
        { role: { isBuiltIn: false, permissions: { has: "refunds.approve" } } },
      ],
    },
    select: { id: true, email: true, name: true, locale: true },
    orderBy: { email: "asc" },
  });
}

// After the hold committed, one by one (the embedded database has one connection).
export async function mailApprovalWaiting(approval: {
  kind: "PIX_REFUND" | "CARD_CANCEL";
  amountCents: number;
  requesterId: string;
}): Promise<void> {
  const requester = await db.user.findUnique({ where: { id: approval.requesterId }, select: { name: true } });
  const url = new URL("/approvals", serverEnv.APP_URL).toString();
  for (const recipient of await approverRecipients({ requesterId: approval.requesterId })) {
    await sendMail({
      to: recipient.email,
      template: "approvalWaiting",
      locale: recipient.locale,
      params: {
        name: recipient.name,
        kind: approval.kind,
        amountCents: approval.amountCents,
        requesterName: requester?.name ?? "?",
        url,
      },
    });
  }
}
