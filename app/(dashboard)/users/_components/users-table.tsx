"use client";

import { useTranslations } from "next-intl";

import { createDataTableColumnHelper, DataTable, type TDataTableColumn } from "@/components/data-table/data-table";
import { DateTime } from "@/components/date-time";
import { Badge } from "@/components/ui/badge";

import { RoleOptionsProvider, type TRoleOption } from "./role-options";
import { UserRowActions } from "./user-row-actions";

/** What the list shows of a user (no secrets: the page picks these fields on the server). */
export type TUserTableRow = {
  id: string;
  name: string;
  email: string;
  roleId: string;
  roleLabel: string;
  isActive: boolean;
  mustChangePassword: boolean;
  lastSignInAt: Date | null;
  hasTwoFactor: boolean;
  isSelf: boolean;
};

const column = createDataTableColumnHelper<TUserTableRow>();

function Header({ name }: { name: string }) {
  const t = useTranslations("users.columns");
  return <>{t(name)}</>;
}

function RoleCell({ user }: { user: TUserTableRow }) {
  return (
    // A custom role's name is the admin's to choose: long ones wrap instead of widening the row.
    <Badge
      tone={user.roleId === "owner" || user.roleId === "administrator" ? "info" : "neutral"}
      className="max-w-full shrink whitespace-normal [overflow-wrap:anywhere]"
    >
      {user.roleLabel}
    </Badge>
  );
}

function StatusCell({ user }: { user: TUserTableRow }) {
  const t = useTranslations("users");
  return (
    <>
      <Badge tone={user.isActive ? "success" : "danger"}>
        {t(user.isActive ? "status.active" : "status.inactive")}
      </Badge>
      {user.mustChangePassword && user.isActive ? (
        <Badge tone="warning" className="ml-1">
          {t("status.mustChangePassword")}
        </Badge>
      ) : null}
    </>
  );
}

function LastSignInCell({ value }: { value: Date | null }) {
  const t = useTranslations("users");
  return value ? <DateTime value={value} /> : t("neverSignedIn");
}

const columns: TDataTableColumn<TUserTableRow>[] = [
  column.accessor("name", {
    header: () => <Header name="name" />,
    meta: { className: "font-medium", card: "title" },
  }),
  column.accessor("email", {
    header: () => <Header name="email" />,
    meta: { className: "max-md:break-all", card: "wide" },
  }),
  column.accessor("roleLabel", {
    id: "role",
    header: () => <Header name="role" />,
    cell: ({ row }) => <RoleCell user={row.original} />,
  }),
  column.accessor("isActive", {
    id: "status",
    header: () => <Header name="status" />,
    cell: ({ row }) => <StatusCell user={row.original} />,
  }),
  column.accessor("lastSignInAt", {
    header: () => <Header name="lastSignIn" />,
    cell: (info) => <LastSignInCell value={info.getValue()} />,
    meta: { className: "tabular-nums" },
  }),
  column.display({
    id: "actions",
    header: () => <Header name="actions" />,
    cell: ({ row: { original: user } }) => (
      <UserRowActions
        user={{
          id: user.id,
          name: user.name,
          email: user.email,
          roleId: user.roleId,
          isActive: user.isActive,
          hasTwoFactor: user.hasTwoFactor,
        }}
        isSelf={user.isSelf}
      />
    ),
    meta: { className: "text-right", card: "actions", isHeaderVisuallyHidden: true },
  }),
];

export function UsersTable({ rows, roles }: { rows: TUserTableRow[]; roles: TRoleOption[] }) {
  const t = useTranslations("users");
  return (
    <RoleOptionsProvider value={roles}>
      <DataTable columns={columns} data={rows} getRowId={(row) => row.id} empty={null} caption={t("caption")} />
    </RoleOptionsProvider>
  );
}
