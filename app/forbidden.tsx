import { ShieldXIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { StatusPage } from "@/components/status-page";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("errors");
  return { title: t("forbiddenTitle") };
}

// Rendered with HTTP 403 by forbidden() (requirePermission) for a signed-in person whose role lacks the permission.
export default async function Forbidden() {
  const t = await getTranslations("errors");
  return <StatusPage icon={ShieldXIcon} title={t("forbiddenTitle")} description={t("forbiddenDescription")} />;
}
