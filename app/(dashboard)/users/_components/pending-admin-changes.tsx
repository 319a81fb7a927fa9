"use client";

import { CheckIcon, XIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";

import { ApproveWithCodeButton } from "@/components/approve-with-code-button";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { DateTime } from "@/components/date-time";
import { StatusBadge } from "@/components/status-badge";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import type { TApproverStanding } from "@/lib/auth/independent-approver";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import type { TAdminChangeView } from "@/lib/users/admin-changes";

import { approveAdminChangeAction, rejectAdminChangeAction } from "../actions";

type PendingAdminChangesProps = { changes: TAdminChangeView[]; viewerId: string; standing: TApproverStanding };

function useDescribeChange() {
  const t = useTranslations("adminChanges");
  const locale = resolveLocale(useLocale());
  return (change: TAdminChangeView): string => {
    if (change.kind === "LOOSEN_MONEY_SETTING" || change.kind === "LOOSEN_ROLE_REFUND_LIMIT") {
      const valueCents = Number(change.payload.valueCents ?? 0);
      const amount = valueCents === 0 ? t("off") : formatBRL(valueCents, locale);
      if (change.kind === "LOOSEN_ROLE_REFUND_LIMIT") {
        return t("kinds.LOOSEN_ROLE_REFUND_LIMIT", { role: String(change.payload.roleName ?? ""), amount });
      }
      return t("kinds.LOOSEN_MONEY_SETTING", { setting: t("settings.dailyMoneyReturnLimitCents"), amount });
    }
    const person = change.target ?? {
      name: String(change.payload.name ?? ""),
      email: String(change.payload.email ?? ""),
    };
    return t(`kinds.${change.kind}`, { name: person.name, email: person.email });
  };
}

function ApproveButton({ change, description }: { change: TAdminChangeView; description: string }) {
  const t = useTranslations("adminChanges");
  const { formText } = useActionErrorText("adminChanges");
  const router = useRouter();

  return (
    <ApproveWithCodeButton
      trigger={
        <Button>
          <CheckIcon aria-hidden="true" />
          {t("approve")}
        </Button>
      }
      title={t("approveTitle")}
      description={t("approveDescription", { change: description })}
      confirmLabel={t("approve")}
      cancelLabel={t("keep")}
      action={(code) => approveAdminChangeAction({ changeId: change.id, code })}
      onSettled={() => router.refresh()}
      successMessage={t("approved")}
      errorText={formText}
      errorDisplay="inline"
    />
  );
}

/** Changes one admin asked for that wait for another: approve (with a fresh code) or reject. */
export function PendingAdminChanges({ changes, viewerId, standing }: PendingAdminChangesProps) {
  const t = useTranslations("adminChanges");
  const { formText } = useActionErrorText("adminChanges");
  const router = useRouter();
  const tApprover = useTranslations("approverCode");
  const describeChange = useDescribeChange();
  if (changes.length === 0) return null;

  return (
    <section aria-labelledby="pending-admin-changes" className="grid gap-3">
      <div>
        <h2 id="pending-admin-changes" className="text-lg font-semibold">
          {t("title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("description")}</p>
        {standing.canApprove ? null : (
          <p className="mt-1 text-sm text-muted-foreground">{tApprover(`cannotApprove.${standing.reason}`)}</p>
        )}
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {changes.map((change) => {
          const description = describeChange(change);
          const isOwn = change.requestedBy.id === viewerId;
          const canApprove = standing.canApprove && !isOwn && !change.isExpired && change.target?.id !== viewerId;
          return (
            <li key={change.id} className="grid gap-3 rounded-md border p-4" data-testid="pending-admin-change">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="min-w-0 font-medium break-words">{description}</p>
                <StatusBadge
                  status={change.isExpired ? "EXPIRED" : "PENDING"}
                  toneByStatus={{ PENDING: "warning", EXPIRED: "neutral" }}
                >
                  {change.isExpired ? t("expired") : t("title")}
                </StatusBadge>
              </div>
              <dl className="grid grid-cols-2 gap-3 text-sm">
                <div className="col-span-2 min-w-0">
                  <dt className="text-xs text-muted-foreground">{t("requestedBy")}</dt>
                  <dd className="break-words">
                    {change.requestedBy.name} ({change.requestedBy.email})
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-muted-foreground">{t("requestedAt")}</dt>
                  <dd>
                    <DateTime value={change.createdAt} />
                  </dd>
                </div>
                <div>
                  <dt className="text-xs text-muted-foreground">{t("expiresAt")}</dt>
                  <dd>
                    <DateTime value={change.expiresAt} />
                  </dd>
                </div>
              </dl>
              {isOwn ? <p className="text-xs text-muted-foreground">{t("ownRequest")}</p> : null}
              <div className="flex flex-wrap gap-2">
                {canApprove ? <ApproveButton change={change} description={description} /> : null}
                <ConfirmActionButton
                  trigger={
                    <Button variant="outline">
                      <XIcon aria-hidden="true" />
                      {t("reject")}
                    </Button>
                  }
                  title={t("rejectTitle")}
                  description={t("rejectDescription", { change: description })}
                  confirmLabel={t("reject")}
                  cancelLabel={t("keep")}
                  variant="destructive"
                  action={() => rejectAdminChangeAction({ changeId: change.id })}
                  onSettled={() => router.refresh()}
                  successMessage={t("rejected")}
                  errorText={formText}
                  errorDisplay="inline"
                />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
