import { ShieldCheckIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { getApproverStanding } from "@/lib/auth/independent-approver";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { findPendingRefundApprovals } from "@/lib/pix/refund-approvals";

import { RefundApprovalList } from "../pix/_components/refund-approval-list";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("approvals");
  return { title: t("title") };
}

// Whoever sees payments sees what waits; the approve/reject actions check the permission and the requester again.
export default async function ApprovalsPage() {
  const user = await requirePermission("payments.view");
  const t = await getTranslations("approvals");
  const [approvals, standing] = await Promise.all([
    findPendingRefundApprovals(),
    getApproverStanding(user.id, "refunds.approve"),
  ]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {approvals.length > 0 ? (
        <RefundApprovalList
          approvals={approvals}
          viewer={{
            id: user.id,
            mayDecide: can(user, "refunds.approve"),
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
