import type { ReactNode } from "react";
import { PermissionGate } from "@/lib/auth/permission-layout";

export default function Layout({ children }: { children: ReactNode }) {
  return <PermissionGate permission="payments.view">{children}</PermissionGate>;
}
