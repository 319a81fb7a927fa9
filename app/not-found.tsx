import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { FileQuestionIcon } from "@/components/server-icons";
import { StatusPage } from "@/components/status-page";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("errors");
  return { title: t("notFoundTitle") };
}

export default async function NotFound() {
  const t = await getTranslations("errors");
  return <StatusPage icon={FileQuestionIcon} title={t("notFoundTitle")} description={t("notFoundDescription")} />;
}
