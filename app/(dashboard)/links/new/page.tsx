import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { requirePermission } from "@/lib/auth/session";

import { NewPaymentLinkForm } from "./_components/new-payment-link-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("links.new");
  return { title: t("title") };
}

export default async function NewPaymentLinkPage() {
  await requirePermission("links.manage");
  const t = await getTranslations("links");
  return (
    <>
      <PageHeader
        title={t("new.title")}
        description={t("new.description")}
        actions={
          <Button asChild variant="outline">
            <Link href="/links">{t("backToList")}</Link>
          </Button>
        }
      />
      <NewPaymentLinkForm />
    </>
  );
}
