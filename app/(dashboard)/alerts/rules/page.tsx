import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { foreverMutedUntil, listAlertRules, type TAlertRuleView } from "@/lib/alerts/settings";
import { requirePermission } from "@/lib/auth/session";
import { log } from "@/lib/log";

import { AlertRuleCard } from "./_components/alert-rule-card";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("alerts.rulesPage");
  return { title: t("title") };
}

export default async function AlertRulesPage() {
  await requirePermission("alerts.manage");
  const t = await getTranslations("alerts.rulesPage");
  let rules: TAlertRuleView[] | null = null;
  try {
    rules = await listAlertRules();
  } catch (error) {
    log.error({ err: error }, "alert rules page: reading the rules failed");
  }

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title={t("title")}
        description={t("description")}
        className="mb-0"
        actions={
          <Button asChild variant="outline">
            <Link href="/alerts">{t("back")}</Link>
          </Button>
        }
      />
      {!rules ? (
        <DataTableError />
      ) : (
        <div className="grid min-w-0 gap-4 xl:grid-cols-2">
          {rules.map((rule) => (
            <AlertRuleCard
              key={rule.key}
              rule={{
                key: rule.key,
                thresholds: rule.thresholds,
                limits: rule.limits,
                isDefault: rule.isDefault,
                mutedUntil: rule.mutedUntil?.toISOString() ?? null,
                isMutedForever: rule.mutedUntil?.getTime() === foreverMutedUntil.getTime(),
              }}
            />
          ))}
        </div>
      )}
    </div>
  );
}
