import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { isPasskeyAvailable, listPasskeys } from "@/lib/auth/passkeys";
import { requireUser } from "@/lib/auth/session";
import { countUnusedRecoveryCodes, getTwoFactorStatus, startTwoFactorEnrolment } from "@/lib/auth/two-factor";
import { PasskeysPanel } from "./_components/passkeys-panel";
import { TwoFactorPanel } from "./_components/two-factor-panel";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account.security");
  return { title: t("title") };
}

// Outside the dashboard layout, like the password page: a user the admin setting requires to enrol reaches
// only this page until they do.
export default async function AccountSecurityPage() {
  const user = await requireUser({ allowTwoFactorEnrolment: true });
  const t = await getTranslations("account.security");
  const { enabledAt } = await getTwoFactorStatus(user.id);
  const description = enabledAt
    ? t("enabledDescription", { remaining: await countUnusedRecoveryCodes(user.id) })
    : t(user.mustEnrollTwoFactor ? "requiredDescription" : "description");
  const tPasskeys = await getTranslations("account.passkeys");
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 p-4">
      <div className="w-full max-w-md rounded-lg border bg-card p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">{t("title")}</h1>
        <TwoFactorPanel
          description={description}
          enrolment={enabledAt ? null : await startTwoFactorEnrolment(user)}
          canCancel={!user.mustEnrollTwoFactor}
        />
      </div>
      <section aria-labelledby="passkeys-title" className="w-full max-w-md rounded-lg border bg-card p-6 shadow-sm">
        <h2 id="passkeys-title" className="mb-1 text-xl font-semibold">
          {tPasskeys("title")}
        </h2>
        <PasskeysPanel passkeys={await listPasskeys(user.id)} isAvailable={isPasskeyAvailable()} />
      </section>
    </main>
  );
}
