import "server-only";
import { withAuth } from "@/lib/auth/with-auth";
import { exportCsvResponse } from "./csv-export";
import { exportLists, type TExportKind } from "./registry";

/** A list's export route handler: authorized as its page (the audit log is for admins only). */
export function exportRoute(kind: TExportKind) {
  return withAuth(async (request, { user }) => exportCsvResponse(kind, request, user), {
    role: exportLists[kind].adminOnly ? "ADMIN" : undefined,
  });
}
