import { ConstructionIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";

type Area = "payments" | "cards" | "pos";

export async function comingSoonMetadata(area: Area): Promise<Metadata> {
  const t = await getTranslations("nav");
  return { title: t(area) };
}

/** An area of the dashboard that a later release builds: says so plainly instead of showing fake data. */
export async function ComingSoon({ area }: { area: Area }) {
  const tNav = await getTranslations("nav");
  const t = await getTranslations("placeholders");
  return (
    <>
      <PageHeader title={tNav(area)} description={t(`${area}.description`)} />
      <EmptyState icon={ConstructionIcon} title={t("comingSoon")} description={t("description")} />
    </>
  );
}
