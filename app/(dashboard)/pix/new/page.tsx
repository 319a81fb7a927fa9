import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { requirePermission } from "@/lib/auth/session";

import { NewPixChargeForm } from "./_components/new-pix-charge-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pix.new");
  return { title: t("title") };
}

export default async function NewPixChargePage() {
  await requirePermission("pix.charge");
  const t = await getTranslations("pix");
  return (
    <>
      <PageHeader
        title={t("new.title")}
        description={t("new.description")}
        actions={
          <Button asChild variant="outline">
            <Link href="/pix">{t("backToList")}</Link>
          </Button>
        }
      />
      <NewPixChargeForm />
    </>
  );
}
