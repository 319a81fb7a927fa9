import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Button } from "@/components/ui/button";
import { isSsoOfferedFor } from "@/lib/sso/flow";
import { getInvitationByToken } from "@/lib/users/invitations";
import { AuthCard } from "../../_components/auth-card";
import { SetPasswordForm } from "../../_components/set-password-form";
import { acceptInvitationAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth.invite");
  return { title: t("title"), referrer: "no-referrer" };
}

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, t] = await Promise.all([
    getInvitationByToken(token.slice(0, 100)),
    getTranslations("auth.invite"),
  ]);
  if (invitation.state !== "valid") {
    return <AuthCard title={t(`${invitation.state}Title`)} description={t(invitation.state)} />;
  }
  const isSsoOffered = await isSsoOfferedFor(invitation.email ?? "");
  return (
    <AuthCard title={t("title")} description={t("description", { name: invitation.name ?? "" })}>
      {isSsoOffered ? (
        <div className="mb-6 grid gap-2">
          <p className="text-sm text-muted-foreground">{t("ssoHint")}</p>
          <Button asChild variant="outline">
            <a href={`/api/auth/sso/start?invitation=${encodeURIComponent(token)}`}>{t("useSso")}</a>
          </Button>
        </div>
      ) : null}
      <SetPasswordForm
        token={token}
        email={invitation.email ?? ""}
        action={acceptInvitationAction}
        submitLabel={t("submit")}
        doneText={t("done")}
        afterDone={null}
      />
    </AuthCard>
  );
}
