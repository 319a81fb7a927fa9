import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
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
  return (
    <AuthCard title={t("title")} description={t("description", { name: invitation.name ?? "" })}>
      <SetPasswordForm
        token={token}
        email={invitation.email ?? ""}
        action={acceptInvitationAction}
        submitLabel={t("submit")}
        doneText={t("done")}
        // Single sign-on, when configured, will offer itself here as the other way in.
        afterDone={null}
      />
    </AuthCard>
  );
}
