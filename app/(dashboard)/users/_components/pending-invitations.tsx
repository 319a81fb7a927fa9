"use client";

import { MailIcon, XIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { DateTime } from "@/components/date-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { resendInvitationAction, revokeInvitationAction } from "../actions";

export type TPendingInvitation = {
  id: string;
  name: string;
  email: string;
  roleLabel: string;
  expiresAt: Date;
  isExpired: boolean;
};

/** Invitations mailed and not yet accepted: the admin may send a fresh link or take the invitation back. */
export function PendingInvitations({ invitations }: { invitations: TPendingInvitation[] }) {
  const t = useTranslations("users.invitations");
  const { formText } = useActionErrorText();
  const router = useRouter();
  if (invitations.length === 0) return null;

  return (
    <section aria-labelledby="pending-invitations" className="grid gap-3">
      <h2 id="pending-invitations" className="text-lg font-semibold">
        {t("title")}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="grid gap-2 rounded-md border p-4" data-testid="pending-invitation">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <p className="min-w-0 font-medium break-words">{invitation.name}</p>
              <Badge tone={invitation.isExpired ? "neutral" : "warning"}>
                {invitation.isExpired ? t("expired") : t("pending")}
              </Badge>
            </div>
            <p className="text-sm break-all">{invitation.email}</p>
            <p className="text-xs text-muted-foreground">
              {invitation.roleLabel} · {t("expiresAt")} <DateTime value={invitation.expiresAt} />
            </p>
            <div className="flex flex-wrap gap-2">
              <ConfirmActionButton
                trigger={
                  <Button variant="outline" size="sm">
                    <MailIcon aria-hidden="true" />
                    {t("resend.label")}
                  </Button>
                }
                title={t("resend.title", { email: invitation.email })}
                description={t("resend.description")}
                confirmLabel={t("resend.confirm")}
                action={() => resendInvitationAction({ invitationId: invitation.id })}
                onSettled={() => router.refresh()}
                successMessage={t("resend.done", { email: invitation.email })}
                errorText={formText}
              />
              <ConfirmActionButton
                trigger={
                  <Button variant="outline" size="sm">
                    <XIcon aria-hidden="true" />
                    {t("revoke.label")}
                  </Button>
                }
                title={t("revoke.title", { email: invitation.email })}
                description={t("revoke.description")}
                confirmLabel={t("revoke.confirm")}
                variant="destructive"
                action={() => revokeInvitationAction({ invitationId: invitation.id })}
                onSettled={() => router.refresh()}
                successMessage={t("revoke.done", { email: invitation.email })}
                errorText={formText}
              />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
