import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { getPasswordResetLink } from "@/lib/auth/password-reset";
import { AuthCard } from "../../_components/auth-card";
import { SetPasswordForm } from "../../_components/set-password-form";
import { resetPasswordAction } from "./actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth.resetPassword");
  return { title: t("title"), referrer: "no-referrer" };
}

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const t = await getTranslations("auth.resetPassword");
  const { state, email } = await getPasswordResetLink(token.slice(0, 100));
  if (state !== "valid") {
    return (
      <AuthCard title={t(`${state}Title`)} description={t(state)}>
        <Link href="/forgot-password" className="text-sm underline underline-offset-4">
          {t("askAgain")}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("title")} description={t("description")}>
      <SetPasswordForm
        token={token}
        email={email ?? ""}
        action={resetPasswordAction}
        submitLabel={t("submit")}
        doneText={t("done")}
      />
    </AuthCard>
  );
}
