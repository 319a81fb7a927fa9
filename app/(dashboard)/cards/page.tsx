import { requireUser } from "@/lib/auth/session";

import { ComingSoon, comingSoonMetadata } from "../_components/coming-soon";

export const generateMetadata = () => comingSoonMetadata("cards");

export default async function Page() {
  await requireUser();
  return <ComingSoon area="cards" />;
}
