"use client";

import { useQueryClient } from "@tanstack/react-query";
import { CheckIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { ApproveWithCodeButton } from "@/components/approve-with-code-button";
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
  /** `approverBlock`: why this admin may not approve at all (lib/auth/independent-approver.ts), shown instead. */
  viewer: { id: string; mayDecide: boolean; approverBlock?: "notApprover" | "newAdmin" | "twoFactorRequired" };
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

type TDecisionTexts = {
  approve: string;
  reject: string;
  approveTitle: string;
  approveDescription: string;
  rejectTitle: string;
  rejectDescription: string;
  approved: string;
  rejected: string;
};

/**
 * Money held back, as cards at every width (no sideways scroll at 390 px): refunds and card cancels waiting for a
 * second admin, and refunds whose first attempt may have gone through (send again / mark as not sent).
 */
export function RefundApprovalList({ approvals, viewer, isChargeShown }: RefundApprovalListProps) {
  const t = useTranslations("approvals");
  const tApprover = useTranslations("approverCode");
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
        const isUnsure = approval.kind === "PIX_REFUND_RECOVERY";
        const isCardCancel = approval.kind === "CARD_CANCEL";
        const isOwn = viewer.id === approval.requestedBy.id;
        const canDecide = viewer.mayDecide && (isUnsure || !isOwn) && !approval.isExpired;
        const values = {
          amount: formatBRL(approval.amountCents, locale),
          txid: approval.txid ?? "",
          paymentId: approval.paymentId ?? "",
        };
        const texts: TDecisionTexts = isUnsure
          ? {
              approve: t("sendAgain"),
              reject: t("markNotSent"),
              approveTitle: t("sendAgainTitle"),
              approveDescription: t("sendAgainDescription", values),
              rejectTitle: t("markNotSentTitle"),
              rejectDescription: t("markNotSentDescription", values),
              approved: t("sentAgain"),
              rejected: t("markedNotSent"),
            }
          : {
              approve: t("approve"),
              reject: t("reject"),
              approveTitle: isCardCancel ? t("approveCancelTitle") : t("approveTitle"),
              approveDescription: isCardCancel
                ? t("approveCancelDescription", values)
                : t("approveDescription", values),
              rejectTitle: t("rejectTitle"),
              rejectDescription: t("rejectDescription", values),
              approved: isCardCancel ? t("cancelApproved") : t("approved"),
              rejected: t("rejected"),
            };
        const reasonKey =
          approval.reason === "chargeTotal"
            ? "reasonChargeTotal"
            : approval.reason === "dailyLimit"
              ? "reasonDailyLimit"
              : approval.reason === "unsureRecovery"
                ? "reasonUnsureRecovery"
                : null;
        return (
          <li key={approval.id} className="grid gap-3 rounded-md border p-4" data-testid="refund-approval">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <Money cents={approval.amountCents} className="text-lg font-semibold" />
              <StatusBadge
                status={isUnsure ? "UNSURE" : approval.isExpired ? "EXPIRED" : "PENDING"}
                toneByStatus={{ PENDING: "warning", EXPIRED: "neutral", UNSURE: "danger" }}
              >
                {isUnsure ? t("kindUnsure") : approval.isExpired ? t("expired") : t("awaiting")}
              </StatusBadge>
            </div>
            {reasonKey ? <p className="text-sm text-muted-foreground">{t(reasonKey)}</p> : null}
            <dl className="grid grid-cols-2 gap-3">
              {isCardCancel && approval.paymentId ? (
                <div className="col-span-2">
                  <Item label={t("kindCardCancel")}>
                    <Link href={`/payments/${approval.paymentId}`} className="font-mono text-xs break-all underline">
                      {approval.paymentId}
                    </Link>
                  </Item>
                </div>
              ) : isChargeShown && approval.txid ? (
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
              {approval.expiresAt ? (
                <Item label={t("expiresAt")}>
                  <DateTime value={approval.expiresAt} />
                </Item>
              ) : null}
              {approval.description ? (
                <div className="col-span-2">
                  <Item label={t("message")}>{approval.description}</Item>
                </div>
              ) : null}
            </dl>
            {canDecide ? (
              <div className="flex flex-wrap gap-2">
                {viewer.approverBlock ? (
                  <p className="basis-full text-xs text-muted-foreground">
                    {tApprover(`cannotApprove.${viewer.approverBlock}`)}
                  </p>
                ) : (
                  <ApproveWithCodeButton
                    trigger={
                      <Button variant={isUnsure ? "outline" : "default"}>
                        <CheckIcon aria-hidden="true" />
                        {texts.approve}
                      </Button>
                    }
                    title={texts.approveTitle}
                    description={texts.approveDescription}
                    confirmLabel={texts.approve}
                    cancelLabel={t("keep")}
                    closeLabel={t("close")}
                    variant={isUnsure ? "destructive" : "default"}
                    action={(code) => approveRefundAction({ approvalId: approval.id, code })}
                    onSettled={refresh}
                    successMessage={texts.approved}
                    errorText={(error) => formText(error, { CONFLICT: t("conflict") })}
                    errorDisplay="inline"
                  />
                )}
                <ConfirmActionButton
                  trigger={
                    <Button variant="outline">
                      <XIcon aria-hidden="true" />
                      {texts.reject}
                    </Button>
                  }
                  title={texts.rejectTitle}
                  description={texts.rejectDescription}
                  confirmLabel={texts.reject}
                  cancelLabel={t("keep")}
                  closeLabel={t("close")}
                  variant={isUnsure ? "default" : "destructive"}
                  action={() => rejectRefundAction({ approvalId: approval.id })}
                  onSettled={refresh}
                  successMessage={texts.rejected}
                  errorText={(error) => formText(error, { CONFLICT: t("conflict") })}
                  errorDisplay="inline"
                />
              </div>
            ) : approval.isExpired ? null : (
              <p className="text-xs text-muted-foreground">
                {isUnsure ? t("unsureDecider") : isOwn ? t("ownRequest") : t("adminOnly")}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
