import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";

import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePermission } from "@/lib/auth/session";
import { getPosTenantConfigForAdmin } from "@/lib/pos/admin-config";
import { getPosTenantTerminals } from "@/lib/pos/admin-terminals";
import { posSellerTokenAudienceFor } from "@/lib/pos/seller-token";

import { PosConfigForm } from "../../_components/pos-config-form";
import { PosTabs } from "../../_components/pos-tabs";
import { PosTenantTerminalsForm } from "../../_components/pos-tenant-terminals-form";

type PageProps = { params: Promise<{ id: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.tenant");
  return { title: t("metaTitle") };
}

// The tenant's default transaction configuration: what every PDV of the tenant gets for each field neither its
// override nor its seller sets (lib/pos/transaction-config.ts); and the gateway terminals it owns (lib/pos/match.ts).
export default async function PosTenantPage({ params }: PageProps) {
  await requirePermission("pos.manage");
  const tenantId = z.uuid().safeParse((await params).id);
  if (!tenantId.success) notFound();
  const [t, config, terminals] = await Promise.all([
    getTranslations("pos"),
    getPosTenantConfigForAdmin(tenantId.data),
    getPosTenantTerminals(tenantId.data),
  ]);
  if (!config) notFound();

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader
          title={t("tenant.title")}
          description={<span className="font-mono text-xs break-all">{tenantId.data}</span>}
        />
        <PosTabs active="keys" />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t("config.tenantTitle")}</CardTitle>
          <CardDescription>{t("config.tenantDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <PosConfigForm tenantId={tenantId.data} initial={config} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("tenant.terminals.title")}</CardTitle>
          <CardDescription>{t("tenant.terminals.description")}</CardDescription>
        </CardHeader>
        <CardContent>
          <PosTenantTerminalsForm tenantId={tenantId.data} initial={terminals} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("tenant.audienceTitle")}</CardTitle>
          <CardDescription>{t("tenant.audienceDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <code className="font-mono text-sm break-all">{posSellerTokenAudienceFor(tenantId.data)}</code>
        </CardContent>
      </Card>
    </div>
  );
}
