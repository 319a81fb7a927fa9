"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CheckIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { DateTime } from "@/components/date-time";
import { Money } from "@/components/money";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import type { TRefundApprovalView } from "@/lib/pix/types";

import { approveRefundAction, rejectRefundAction } from "../actions";
import { usePixErrorText } from "./use-pix-error-text";

type RefundApprovalListProps = {
  approvals: TRefundApprovalView[];
  viewer: { id: string; isAdmin: boolean };
  /** On the approvals page each card links to its charge; on the charge page it would link to itself. */
  isChargeShown: boolean;
};

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

/** Refunds waiting for a second admin, as cards at every width (no sideways scroll at 390 px). */
export function RefundApprovalList({ approvals, viewer, isChargeShown }: RefundApprovalListProps) {
  const t = useTranslations("approvals");
  const locale = resolveLocale(useLocale());
  const { formText } = usePixErrorText();
  const router = useRouter();
  const queryClient = useQueryClient();

  // A decision changes the approvals (server-rendered) and, once approved, the charge's refunds (queried).
  async function refresh() {
    router.refresh();
    await queryClient.invalidateQueries({ queryKey: ["pix-charge"] });
  }

  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {approvals.map((approval) => {
        const canDecide = viewer.isAdmin && viewer.id !== approval.requestedBy.id && !approval.isExpired;
        const values = { amount: formatBRL(approval.amountCents, locale), txid: approval.txid };
        return (
          <li key={approval.id} className="grid gap-3 rounded-md border p-4" data-testid="refund-approval">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <Money cents={approval.amountCents} className="text-lg font-semibold" />
              <StatusBadge
                status={approval.isExpired ? "EXPIRED" : "PENDING"}
                toneByStatus={{ PENDING: "warning", EXPIRED: "neutral" }}
              >
                {approval.isExpired ? t("expired") : t("awaiting")}
              </StatusBadge>
            </div>
            <dl className="grid grid-cols-2 gap-3">
              {isChargeShown ? (
                <div className="col-span-2">
                  <Item label={t("charge")}>
                    <Link href={`/pix/${approval.txid}`} className="font-mono text-xs break-all underline">
                      {approval.txid}
                    </Link>
                  </Item>
                </div>
              ) : null}
              <div className="col-span-2">
                <Item label={t("requestedBy")}>
                  {approval.requestedBy.name} ({approval.requestedBy.email})
                </Item>
              </div>
              <Item label={t("requestedAt")}>
                <DateTime value={approval.createdAt} />
              </Item>
              <Item label={t("expiresAt")}>
                <DateTime value={approval.expiresAt} />
              </Item>
              {approval.description ? (
                <div className="col-span-2">
                  <Item label={t("message")}>{approval.description}</Item>
                </div>
              ) : null}
            </dl>
            {canDecide ? (
              <div className="flex flex-wrap gap-2">
                <ConfirmActionButton
                  trigger={
                    <Button>
                      <CheckIcon aria-hidden="true" />
                      {t("approve")}
                    </Button>
                  }
                  title={t("approveTitle")}
                  description={t("approveDescription", values)}
                  confirmLabel={t("approve")}
                  cancelLabel={t("keep")}
                  closeLabel={t("close")}
                  action={() => approveRefundAction({ approvalId: approval.id })}
                  onSettled={refresh}
                  successMessage={t("approved")}
                  errorText={(error) => formText(error, { CONFLICT: t("conflict") })}
                  errorDisplay="inline"
                />
                <ConfirmActionButton
                  trigger={
                    <Button variant="outline">
                      <XIcon aria-hidden="true" />
                      {t("reject")}
                    </Button>
                  }
                  title={t("rejectTitle")}
                  description={t("rejectDescription", values)}
                  confirmLabel={t("reject")}
                  cancelLabel={t("keep")}
                  closeLabel={t("close")}
                  variant="destructive"
                  action={() => rejectRefundAction({ approvalId: approval.id })}
                  onSettled={refresh}
                  successMessage={t("rejected")}
                  errorText={(error) => formText(error, { CONFLICT: t("conflict") })}
                  errorDisplay="inline"
                />
              </div>
            ) : approval.isExpired ? null : (
              <p className="text-xs text-muted-foreground">
                {viewer.id === approval.requestedBy.id ? t("ownRequest") : t("adminOnly")}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
