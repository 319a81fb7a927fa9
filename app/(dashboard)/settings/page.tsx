import { AlertTriangleIcon, ShieldCheckIcon, XCircleIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { Badge, type TBadgeTone } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { roleLabel } from "@/lib/auth/roles";
import { requirePermission } from "@/lib/auth/session";
import { serverEnv } from "@/lib/config/server-env";
import { getAppSetting } from "@/lib/settings/app-settings";
import { getGatewayCertificateReport, type TCertificateInfo } from "@/lib/settings/gateway-connection";
import { ssoCallbackPath } from "@/lib/sso/flow";
import { getSsoSettings, listBreakGlassCandidates } from "@/lib/sso/settings";
import { listRoles } from "@/lib/users/roles";
import { ConnectionCheck } from "./_components/connection-check";
import { MoneySettingForm } from "./_components/money-setting-form";
import { SsoSettingsForm } from "./_components/sso-settings-form";
import { TwoFactorPolicyForm } from "./_components/two-factor-policy-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("settings");
  return { title: t("title") };
}

const expiryTones: Record<TCertificateInfo["expiryState"], TBadgeTone> = {
  valid: "success",
  expiring: "warning",
  expired: "danger",
  "not-yet-valid": "danger",
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm break-words">{children}</dd>
    </div>
  );
}

// Only public facts about the client certificate reach this page: the key is read on the server
// to check that it matches the certificate, and nothing of it is rendered.
export default async function SettingsPage() {
  await requirePermission("settings.manage");
  const t = await getTranslations("settings");
  const tCommon = await getTranslations("common");
  const [sso, roles, owners] = await Promise.all([getSsoSettings(), listRoles(), listBreakGlassCandidates()]);
  const roleOptions = roles.map((role) => ({
    id: role.id,
    label: roleLabel({ roleId: role.id, roleName: role.name }, (id) => tCommon(`roles.${id}`)),
  }));
  const report = getGatewayCertificateReport();
  const twoFactorRequirement = await getAppSetting("twoFactorRequirement");
  const dailyMoneyReturnLimitCents = await getAppSetting("dailyMoneyReturnLimitCents");

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>{t("gateway.title")}</CardTitle>
            <CardDescription>{t("gateway.description")}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <dl className="grid gap-3">
              <Row label={t("gateway.baseUrl")}>
                <code className="font-mono">{report.baseUrl ?? "—"}</code>
              </Row>
            </dl>
            {report.ok ? (
              <dl className="grid gap-3">
                {report.certificate.expiryState !== "valid" ? (
                  <div
                    className="flex items-start gap-2 rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-warning"
                    role="alert"
                  >
                    <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                    <p>
                      {t(`certificate.alerts.${report.certificate.expiryState}`, {
                        days: report.certificate.daysUntilExpiry,
                      })}
                    </p>
                  </div>
                ) : null}
                {!report.isKeyMatching ? (
                  <div
                    className="flex items-start gap-2 rounded-md border border-destructive/25 bg-danger-soft p-3 text-sm text-destructive"
                    role="alert"
                  >
                    <XCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                    <p>{t("certificate.keyMismatch")}</p>
                  </div>
                ) : null}
                <Row label={t("certificate.subject")}>{report.certificate.subject}</Row>
                <Row label={t("certificate.issuer")}>{report.certificate.issuer}</Row>
                <Row label={t("certificate.fingerprint")}>
                  <code className="font-mono text-xs break-all">{report.certificate.fingerprintSha256}</code>
                </Row>
                <Row label={t("certificate.serialNumber")}>
                  <code className="font-mono text-xs">{report.certificate.serialNumber}</code>
                </Row>
                <Row label={t("certificate.validFrom")}>
                  <DateTime value={report.certificate.validFrom} />
                </Row>
                <Row label={t("certificate.validTo")}>
                  <span className="flex flex-wrap items-center gap-2">
                    <DateTime value={report.certificate.validTo} />
                    <Badge tone={expiryTones[report.certificate.expiryState]}>
                      {report.certificate.expiryState === "valid" ? <ShieldCheckIcon aria-hidden /> : null}
                      {t(`certificate.states.${report.certificate.expiryState}`, {
                        days: report.certificate.daysUntilExpiry,
                      })}
                    </Badge>
                  </span>
                </Row>
                <Row label={t("certificate.ca")}>{report.ca ? report.ca.subject : t("certificate.systemCa")}</Row>
                <Row label={t("certificate.sources")}>
                  {t("certificate.sourceList", {
                    cert: report.sources.cert,
                    key: report.sources.key,
                    ca: report.sources.ca ?? "—",
                  })}
                </Row>
              </dl>
            ) : (
              <div
                className="flex items-start gap-2 rounded-md border border-destructive/25 bg-danger-soft p-3 text-sm text-destructive"
                role="alert"
              >
                <XCircleIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
                <div className="grid gap-1">
                  <p className="font-medium">{t("certificate.unavailable")}</p>
                  <p className="font-mono text-xs break-all">{report.problem}</p>
                </div>
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("connection.title")}</CardTitle>
            <CardDescription>{t("connection.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <ConnectionCheck />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("twoFactor.title")}</CardTitle>
            <CardDescription>{t("twoFactor.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorPolicyForm requirement={twoFactorRequirement} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("sso.title")}</CardTitle>
            <CardDescription>{t("sso.description")}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            <dl className="grid gap-3">
              <Row label={t("sso.callbackUrl")}>
                <code className="font-mono text-xs break-all">
                  {new URL(ssoCallbackPath, serverEnv.APP_URL).toString()}
                </code>
              </Row>
            </dl>
            <SsoSettingsForm
              values={sso}
              roles={roleOptions}
              owners={owners.map((owner) => ({ id: owner.id, label: `${owner.name} (${owner.email})` }))}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("refundApproval.title")}</CardTitle>
            <CardDescription>{t("refundApproval.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Link href="/users/roles" className="text-sm font-medium underline underline-offset-4">
              {t("refundApproval.perRole")}
            </Link>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("dailyMoneyReturnLimit.title")}</CardTitle>
            <CardDescription>{t("dailyMoneyReturnLimit.description")}</CardDescription>
          </CardHeader>
          <CardContent>
            <MoneySettingForm setting="dailyMoneyReturnLimit" valueCents={dailyMoneyReturnLimitCents} />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t("mail.title")}</CardTitle>
            <CardDescription>{serverEnv.SMTP_URL ? t("mail.smtp") : t("mail.outbox")}</CardDescription>
          </CardHeader>
          <CardContent>
            <Link href="/settings/outbox" className="text-sm underline underline-offset-4">
              {t("mail.open")}
            </Link>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
