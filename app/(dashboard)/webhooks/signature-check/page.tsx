import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { z } from "zod";

import { PageHeader } from "@/components/page-header";
import { requirePermission } from "@/lib/auth/session";
import { getDeliveryForSignatureCheck, listWebhooksWithSecret } from "@/lib/webhooks/admin";

import { SignatureCheckForm } from "../_components/signature-check-form";
import { WebhooksTabs } from "../_components/webhooks-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks.signatureCheck");
  return { title: t("title") };
}

const ZSearch = z.object({ delivery: z.uuid().optional().catch(undefined) });

// Admin only: with a stored secret the tool says whether a signature fits any body.
export default async function SignatureCheckPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission("webhooks.manage");
  const { delivery } = ZSearch.parse(await searchParams);
  const [webhooks, initial, t] = await Promise.all([
    listWebhooksWithSecret(),
    delivery ? getDeliveryForSignatureCheck(delivery) : null,
    getTranslations("webhooks.signatureCheck"),
  ]);

  return (
    <div className="grid gap-6">
      <div>
        <PageHeader title={t("title")} description={t("description")} />
        <WebhooksTabs active="signatureCheck" permissions={user.permissions} />
      </div>
      <SignatureCheckForm
        webhooks={webhooks.map(({ id, url, isActive }) => ({ id, url, isActive }))}
        initial={initial ?? undefined}
      />
    </div>
  );
}
