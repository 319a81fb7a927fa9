import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { isBuiltInRole, roleLabel } from "@/lib/auth/roles";
import { requirePermission } from "@/lib/auth/session";
import { db } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { findRole } from "@/lib/users/roles";
import { ZRoleId } from "@/lib/users/schemas";
import { RoleForm } from "../_components/role-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("roles");
  return { title: t("editTitle") };
}

async function findRoleOrNull(roleId: string) {
  try {
    return await findRole(db, roleId);
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export default async function EditRolePage({ params }: { params: Promise<{ id: string }> }) {
  const viewer = await requirePermission("users.manage");
  const parsed = ZRoleId.safeParse((await params).id);
  const role = parsed.success ? await findRoleOrNull(parsed.data) : null;
  if (!role) notFound();
  const [t, tCommon] = await Promise.all([getTranslations("roles"), getTranslations("common")]);
  const label = roleLabel({ roleId: role.id, roleName: role.name }, (id) => tCommon(`roles.${id}`));
  return (
    <>
      <PageHeader
        title={label}
        description={isBuiltInRole(role.id) ? t(`descriptions.${role.id}`) : (role.description ?? t("editTitle"))}
      />
      <RoleForm
        viewerPermissions={viewer.permissions}
        role={{
          roleId: role.id,
          isBuiltIn: role.isBuiltIn,
          label,
          description: role.description ?? "",
          permissions: role.permissions,
          refundLimitCents: role.refundLimitCents,
          userCount: role.userCount,
        }}
      />
    </>
  );
}
