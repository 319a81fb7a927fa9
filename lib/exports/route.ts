import "server-only";
import { withAuth } from "@/lib/auth/with-auth";
import { AppError } from "@/lib/errors";
import { exportCsvResponse } from "./csv-export";
import { exportKinds, exportLists } from "./registry";

type TExportParams = { kind: string };

// One handler per kind, authorized as its list page (the audit log is for admins only).
const handlers = new Map(
  exportKinds.map((kind) => [
    exportLists[kind].path,
    withAuth<TExportParams>(async (request, { user }) => exportCsvResponse(kind, request, user), {
      role: exportLists[kind].adminOnly ? "ADMIN" : undefined,
    }),
  ]),
);

// Signed in first, as for a known kind: an anonymous caller learns nothing of which kinds exist.
const unknownKind = withAuth<TExportParams>(async () => {
  throw new AppError("NOT_FOUND", "errors.unknownExport");
});

export async function exportRoute(request: Request, context: { params: Promise<TExportParams> }): Promise<Response> {
  const { kind } = await context.params;
  return (handlers.get(kind) ?? unknownKind)(request, context);
}
