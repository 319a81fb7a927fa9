import { ShieldCheckIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { getApproverStanding } from "@/lib/auth/independent-approver";
import { requireUser } from "@/lib/auth/session";
import { findPendingRefundApprovals } from "@/lib/pix/refund-approvals";

import { RefundApprovalList } from "../pix/_components/refund-approval-list";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("approvals");
  return { title: t("title") };
}

// Every signed-in user sees what waits; the approve/reject actions check the role and the requester again.
export default async function ApprovalsPage() {
  const user = await requireUser();
  const t = await getTranslations("approvals");
  const [approvals, standing] = await Promise.all([findPendingRefundApprovals(), getApproverStanding(user.id)]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {approvals.length > 0 ? (
        <RefundApprovalList
          approvals={approvals}
          viewer={{
            id: user.id,
            isAdmin: user.role === "ADMIN",
            approverBlock: standing.canApprove ? undefined : standing.reason,
          }}
          isChargeShown
        />
      ) : (
        <EmptyState icon={ShieldCheckIcon} title={t("empty")} />
      )}
    </>
  );
}
