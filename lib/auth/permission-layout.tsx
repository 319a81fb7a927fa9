import "server-only";
import type { ReactNode } from "react";
import type { TPermission } from "./permissions";
import { requirePermission } from "./session";

// For a segment with a loading.tsx: its page streams, so the status (200) is sent before the page could refuse. Its
// layout renders this above the loading boundary, which refuses first with a real 403; the page still checks itself.
export async function PermissionGate({ permission, children }: { permission: TPermission; children: ReactNode }) {
  await requirePermission(permission);
  return children;
}
