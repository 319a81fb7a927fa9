import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { getApproverStanding } from "@/lib/auth/independent-approver";
import { requireAdmin } from "@/lib/auth/session";
import { listPendingAdminChanges } from "@/lib/users/admin-changes";
import { listUsers } from "@/lib/users/users";
import { CreateUserDialog } from "./_components/create-user-dialog";
import { PendingAdminChanges } from "./_components/pending-admin-changes";
import { UsersTable } from "./_components/users-table";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("users");
  return { title: t("title") };
}

export default async function UsersPage() {
  const admin = await requireAdmin();
  const [users, changes, standing, t] = await Promise.all([
    listUsers(),
    listPendingAdminChanges(),
    getApproverStanding(admin.id),
    getTranslations("users"),
  ]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-muted-foreground">{t("description")}</p>
        </div>
        <CreateUserDialog />
      </div>
      <PendingAdminChanges changes={changes} viewerId={admin.id} standing={standing} />
      <UsersTable
        rows={users.map((user) => ({
          id: user.id,
          name: user.name,
          email: user.email,
          role: user.role,
          isActive: user.isActive,
          mustChangePassword: user.mustChangePassword,
          lastSignInAt: user.lastSignInAt,
          hasTwoFactor: user.totpEnabledAt !== null || user.hasPasskeys,
          isSelf: user.id === admin.id,
        }))}
      />
    </div>
  );
}
