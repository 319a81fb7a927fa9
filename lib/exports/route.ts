import "server-only";
import { can } from "@/lib/auth/permissions";
import { withAuth } from "@/lib/auth/with-auth";
import { AppError } from "@/lib/errors";
import { exportCsvResponse } from "./csv-export";
import { exportKinds, exportLists } from "./registry";

type TExportParams = { kind: string };

// One handler per kind: downloading is a permission of its own, and the list's rows need the permission of its page.
const handlers = new Map(
  exportKinds.map((kind) => [
    exportLists[kind].path,
    withAuth<TExportParams>(
      async (request, { user }) => {
        if (!can(user, exportLists[kind].permission)) {
          throw new AppError("FORBIDDEN", "errors.auth.permissionRequired");
        }
        return exportCsvResponse(kind, request, user);
      },
      { permission: "exports.download" },
    ),
  ]),
);

// Signed in first, as for a known kind: an anonymous caller learns nothing of which kinds exist.
const unknownKind = withAuth<TExportParams>(
  async () => {
    throw new AppError("NOT_FOUND", "errors.unknownExport");
  },
  { permission: "exports.download" },
);

export async function exportRoute(request: Request, context: { params: Promise<TExportParams> }): Promise<Response> {
  const { kind } = await context.params;
  return (handlers.get(kind) ?? unknownKind)(request, context);
}
