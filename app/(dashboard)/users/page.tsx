import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAdmin } from "@/lib/auth/session";
import { formatDateTime } from "@/lib/format/date-time";
import type { TLocale } from "@/lib/i18n/config";
import { listUsers } from "@/lib/users/users";
import { CreateUserDialog } from "./_components/create-user-dialog";
import { UserRowActions } from "./_components/user-row-actions";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("users");
  return { title: t("title") };
}

export default async function UsersPage() {
  const admin = await requireAdmin();
  const [users, t, tCommon, locale] = await Promise.all([
    listUsers(),
    getTranslations("users"),
    getTranslations("common"),
    getLocale() as Promise<TLocale>,
  ]);

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="text-sm text-muted-foreground">{t("description")}</p>
        </div>
        <CreateUserDialog />
      </div>
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("columns.name")}</TableHead>
            <TableHead>{t("columns.email")}</TableHead>
            <TableHead>{t("columns.role")}</TableHead>
            <TableHead>{t("columns.status")}</TableHead>
            <TableHead>{t("columns.lastSignIn")}</TableHead>
            <TableHead>
              <span className="sr-only">{t("columns.actions")}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {users.map((user) => (
            <TableRow key={user.id}>
              <TableCell className="font-medium">{user.name}</TableCell>
              <TableCell>{user.email}</TableCell>
              <TableCell>
                <Badge tone={user.role === "ADMIN" ? "info" : "neutral"}>{tCommon(`roles.${user.role}`)}</Badge>
              </TableCell>
              <TableCell>
                <Badge tone={user.isActive ? "success" : "danger"}>
                  {t(user.isActive ? "status.active" : "status.inactive")}
                </Badge>
                {user.mustChangePassword && user.isActive ? (
                  <Badge tone="warning" className="ml-1">
                    {t("status.mustChangePassword")}
                  </Badge>
                ) : null}
              </TableCell>
              <TableCell className="tabular-nums">
                {user.lastSignInAt ? formatDateTime(user.lastSignInAt, locale) : t("neverSignedIn")}
              </TableCell>
              <TableCell className="text-right">
                <UserRowActions
                  user={{
                    id: user.id,
                    name: user.name,
                    email: user.email,
                    role: user.role,
                    isActive: user.isActive,
                    hasTwoFactor: user.totpEnabledAt !== null,
                  }}
                  isSelf={user.id === admin.id}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
