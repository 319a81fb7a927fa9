import type { ReactNode } from "react";

import { requireUser } from "@/lib/auth/session";

import { Providers } from "../providers";
import { DashboardShell } from "./_components/dashboard-shell";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <Providers>
      <DashboardShell user={user}>{children}</DashboardShell>
    </Providers>
  );
}
