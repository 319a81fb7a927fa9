import "server-only";
import type { ReactNode } from "react";
import type { TPermission } from "./permissions";
import { requirePermission } from "./session";

// For a segment with a loading.tsx: its page streams, so the status (200) is sent before the page could refuse. A
// layout above the loading boundary refuses first, with a real 403; the page still checks on its own.
export function permissionLayout(permission: TPermission) {
  return async function PermissionLayout({ children }: { children: ReactNode }) {
    await requirePermission(permission);
    return children;
  };
}
