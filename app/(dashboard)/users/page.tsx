import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { getApproverStanding } from "@/lib/auth/independent-approver";
import { administrationPermission } from "@/lib/auth/permissions";
import { roleLabel } from "@/lib/auth/roles";
import { requirePermission } from "@/lib/auth/session";
import { listPendingAdminChanges } from "@/lib/users/admin-changes";
import { listPendingInvitations } from "@/lib/users/invitations";
import { listRoles } from "@/lib/users/roles";
import { listUsers } from "@/lib/users/users";
import { CreateUserDialog } from "./_components/create-user-dialog";
import { PendingAdminChanges } from "./_components/pending-admin-changes";
import { PendingInvitations } from "./_components/pending-invitations";
import { UsersTable } from "./_components/users-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("users");
  return { title: t("title") };
}

export default async function UsersPage() {
  const admin = await requirePermission("users.manage");
  const [users, roles, invitations, changes, standing, t, tCommon] = await Promise.all([
    listUsers(),
    listRoles(),
    listPendingInvitations(),
    listPendingAdminChanges(),
    getApproverStanding(admin.id, administrationPermission),
    getTranslations("users"),
    getTranslations("common"),
  ]);
  const labelOf = (roleId: string) =>
    roleLabel({ roleId, roleName: roles.find((role) => role.id === roleId)?.name ?? null }, (id) =>
      tCommon(`roles.${id}`),
    );
  // Only the roles within the viewer's own permissions are offered; the server checks it again.
  const roleOptions = roles
    .filter((role) => role.permissions.every((permission) => admin.permissions.includes(permission)))
    .filter((role) => role.id !== "owner" || admin.roleId === "owner")
    .map((role) => ({ id: role.id, label: labelOf(role.id) }));

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-muted-foreground">{t("description")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link
            href="/users/roles"
            className="inline-flex h-9 items-center rounded-md border px-3 text-sm font-medium hover:bg-muted"
          >
            {t("rolesLink")}
          </Link>
          <CreateUserDialog roles={roleOptions} />
        </div>
      </div>
      <PendingAdminChanges changes={changes} viewerId={admin.id} standing={standing} />
      <PendingInvitations
        invitations={invitations.map((invitation) => ({ ...invitation, roleLabel: labelOf(invitation.roleId) }))}
      />
      <UsersTable
        rows={users.map((user) => ({
          id: user.id,
          name: user.name,
          email: user.email,
          roleId: user.roleId,
          roleLabel: labelOf(user.roleId),
          isActive: user.isActive,
          mustChangePassword: user.mustChangePassword,
          lastSignInAt: user.lastSignInAt,
          hasTwoFactor: user.totpEnabledAt !== null || user.hasPasskeys,
          isSelf: user.id === admin.id,
        }))}
        roles={roleOptions}
      />
    </div>
  );
}
