import { requireUser } from "@/lib/auth/session";

import { ComingSoon, comingSoonMetadata } from "../_components/coming-soon";

export const generateMetadata = () => comingSoonMetadata("pos");

export default async function Page() {
  await requireUser();
  return <ComingSoon area="pos" />;
}
