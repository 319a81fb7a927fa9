import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { requirePermission } from "@/lib/auth/session";
import { RoleForm } from "../_components/role-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("roles");
  return { title: t("newTitle") };
}

export default async function NewRolePage() {
  const viewer = await requirePermission("users.manage");
  const t = await getTranslations("roles");
  return (
    <>
      <PageHeader title={t("newTitle")} description={t("newDescription")} />
      <RoleForm
        viewerPermissions={viewer.permissions}
        role={{
          roleId: null,
          isBuiltIn: false,
          label: "",
          description: "",
          permissions: ["payments.view"],
          refundLimitCents: 100_000,
          userCount: 0,
        }}
      />
    </>
  );
}
