import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/lib/auth/session";
import { ChangePasswordForm } from "./_components/change-password-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account.password");
  return { title: t("title") };
}

// Outside the dashboard layout on purpose: a user holding a one-time password may reach only this page.
export default async function ChangePasswordPage() {
  const user = await requireUser({ allowPasswordChange: true });
  const t = await getTranslations("account.password");
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm rounded-lg border bg-card p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">{t("title")}</h1>
        <p className="mb-6 text-sm text-muted-foreground">
          {user.mustChangePassword ? t("requiredDescription") : t("description")}
        </p>
        <ChangePasswordForm canCancel={!user.mustChangePassword} />
      </div>
    </main>
  );
}
