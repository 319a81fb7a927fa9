import { PlusIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getFormatter, getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { permissions } from "@/lib/auth/permissions";
import { isBuiltInRole, roleLabel } from "@/lib/auth/roles";
import { requirePermission } from "@/lib/auth/session";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { listRoles } from "@/lib/users/roles";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("roles");
  return { title: t("title") };
}

export default async function RolesPage() {
  const viewer = await requirePermission("users.manage");
  const [roles, t, tCommon, tPermissions, format] = await Promise.all([
    listRoles(),
    getTranslations("roles"),
    getTranslations("common"),
    getTranslations("permissions.items"),
    getFormatter(),
  ]);
  const locale = resolveLocale(viewer.locale);
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t("description")}
        actions={
          <Link
            href="/users/roles/new"
            className="inline-flex h-9 items-center gap-2 rounded-md bg-primary px-3 text-sm font-medium text-primary-foreground hover:bg-primary/90"
          >
            <PlusIcon className="size-4" aria-hidden="true" />
            {t("new")}
          </Link>
        }
      />
      <ul className="grid gap-4 md:grid-cols-2">
        {roles.map((role) => {
          const label = roleLabel({ roleId: role.id, roleName: role.name }, (id) => tCommon(`roles.${id}`));
          return (
            <li key={role.id}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle className="flex flex-wrap items-center gap-2">
                    <Link href={`/users/roles/${role.id}`} className="underline-offset-4 hover:underline">
                      {label}
                    </Link>
                    <Badge tone={role.isBuiltIn ? "neutral" : "info"}>{t(role.isBuiltIn ? "builtIn" : "custom")}</Badge>
                  </CardTitle>
                  <CardDescription>
                    {isBuiltInRole(role.id) ? t(`descriptions.${role.id}`) : (role.description ?? "")}
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-2 text-sm">
                  <p>
                    {t("people", { count: role.userCount })} ·{" "}
                    {t("permissionCount", { count: role.permissions.length, total: permissions.length })}
                  </p>
                  <p>
                    {role.permissions.includes("refunds.request") || role.permissions.includes("cards.cancel")
                      ? role.refundLimitCents === 0
                        ? t("refundLimitNone")
                        : t("refundLimit", { amount: formatBRL(role.refundLimitCents, locale) })
                      : t("refundsNotAllowed")}
                  </p>
                  <p className="text-muted-foreground">
                    {format.list(
                      role.permissions.map((permission) => tPermissions(`${permission}.label`)),
                      { type: "conjunction" },
                    ) || t("nothing")}
                  </p>
                </CardContent>
              </Card>
            </li>
          );
        })}
      </ul>
    </>
  );
}
