import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { toSameOriginPath } from "@/lib/auth/callback-url";
import { isPasskeyAvailable } from "@/lib/auth/passkeys";
import { getCurrentUser } from "@/lib/auth/session";
import { serverEnv } from "@/lib/config/server-env";
import { isSsoAvailable } from "@/lib/sso/flow";
import { parseSsoError } from "@/lib/sso/refusals";
import { LoginForm } from "./_components/login-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("auth.login");
  return { title: t("title") };
}

// Only a path on this site, so a crafted link cannot send someone elsewhere after sign-in.
const ZCallbackUrl = z
  .unknown()
  .optional()
  .transform((value) => toSameOriginPath(value, serverEnv.APP_URL));

const ZLoginSearchParams = z.object({
  callbackUrl: ZCallbackUrl,
  error: z.string().max(100).optional().catch(undefined),
  // Set by the session check when it refused a session idle for too long (lib/auth/session.ts).
  reason: z.enum(["idle"]).optional().catch(undefined),
});

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { callbackUrl, error, reason } = ZLoginSearchParams.parse(await searchParams);
  if (await getCurrentUser()) redirect(callbackUrl);
  const t = await getTranslations("auth.login");
  const ssoError = parseSsoError(error);
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-sm rounded-lg border bg-card p-6 shadow-sm">
        <h1 className="mb-1 text-xl font-semibold">{t("title")}</h1>
        <p className="mb-6 text-sm text-muted-foreground">{t("description")}</p>
        {reason === "idle" ? (
          <p role="status" className="mb-4 rounded-md border bg-muted p-3 text-sm">
            {t("sessionIdle")}
          </p>
        ) : null}
        {ssoError ? (
          <p
            role="alert"
            className="mb-4 rounded-md border border-destructive/25 bg-danger-soft p-3 text-sm text-destructive"
          >
            {t(`ssoErrors.${ssoError}`)}
          </p>
        ) : null}
        <LoginForm
          callbackUrl={callbackUrl}
          initialError={ssoError ? null : (error ?? null)}
          isPasskeyAvailable={isPasskeyAvailable()}
          isSsoAvailable={await isSsoAvailable()}
        />
      </div>
    </main>
  );
}
