import { requireAdmin } from "@/lib/auth/session";

import { ComingSoon, comingSoonMetadata } from "../_components/coming-soon";

export const generateMetadata = () => comingSoonMetadata("settings");

export default async function Page() {
  await requireAdmin();
  return <ComingSoon area="settings" />;
}
