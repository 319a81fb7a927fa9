import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";

import { DateTime } from "@/components/date-time";
import { DetailItem } from "@/components/detail-list";
import { PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePermission } from "@/lib/auth/session";
import { emptyPosConfigView, getPosConfigsForAdmin, resolvePosConfig } from "@/lib/pos/admin-config";
import { getPosSellerForAdmin } from "@/lib/pos/admin-sellers";

import { PosConfigForm } from "../../_components/pos-config-form";
import { PosStatusButton } from "../../_components/pos-status-button";
import { PosTabs } from "../../_components/pos-tabs";

type PageProps = { params: Promise<{ id: string }> };

// Seller ids are URL-safe codes; a malformed escape in a hand-edited URL is just an unknown seller.
function decodeId(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const [{ id }, t] = await Promise.all([params, getTranslations("pos.seller")]);
  return { title: t("title", { id: decodeId(id) }) };
}

export default async function PosSellerPage({ params }: PageProps) {
  await requirePermission("pos.manage");
  const id = decodeId((await params).id);
  const seller = await getPosSellerForAdmin(id);
  if (!seller) notFound();
  const [t, configs] = await Promise.all([getTranslations("pos"), getPosConfigsForAdmin(seller.id)]);
  const tone = { ACTIVE: "success", BLOCKED: "danger" } as const;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader
          title={<span className="break-all">{t("seller.title", { id: seller.id })}</span>}
          description={<span className="break-all">{seller.reference}</span>}
          actions={<PosStatusButton kind="seller" id={seller.id} isBlocked={seller.status === "BLOCKED"} />}
        />
        <PosTabs active="sellers" />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t("seller.details")}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
            <DetailItem label={t("sellers.columns.status")}>
              <StatusBadge status={seller.status} toneByStatus={tone}>
                {t(`sellers.status.${seller.status}`)}
              </StatusBadge>
              {seller.blockedReason ? <span className="block text-xs">{seller.blockedReason}</span> : null}
            </DetailItem>
            <DetailItem label={t("sellers.columns.subEstablishmentRef")}>
              <span className="font-mono text-xs break-all">{seller.subEstablishmentRef}</span>
            </DetailItem>
            <DetailItem label={t("seller.tenant")}>
              <Link
                href={`/pos/tenants/${seller.tenantId}`}
                className="font-mono text-xs break-all underline-offset-4 hover:underline"
              >
                {seller.tenantId}
              </Link>
            </DetailItem>
            <DetailItem label={t("sellers.columns.activatedAt")}>
              <DateTime value={seller.createdAt} />
            </DetailItem>
            <DetailItem label={t("sellers.columns.lastReportAt")}>
              {seller.lastReportAt ? <DateTime value={seller.lastReportAt} /> : t("never")}
            </DetailItem>
            <DetailItem label={t("seller.sales")}>
              <Link
                href={`/pos/sales?sellerId=${encodeURIComponent(seller.id)}`}
                className="underline-offset-4 hover:underline"
              >
                {t("seller.salesLink")}
              </Link>
            </DetailItem>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("config.sellerTitle")}</CardTitle>
          <CardDescription>{t("config.sellerDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          <PosConfigForm
            sellerId={seller.id}
            initial={configs.seller}
            inherited={configs.tenant}
            inheritedFrom="tenant"
          />
        </CardContent>
      </Card>

      <section className="grid gap-4" aria-labelledby="pos-devices">
        <h2 id="pos-devices" className="text-lg font-semibold">
          {t("seller.devices", { count: seller.devices.length })}
        </h2>
        {seller.devices.length === 0 ? <p className="text-sm text-muted-foreground">{t("seller.noDevices")}</p> : null}
        {seller.devices.map((device) => {
          const override = configs.overrides[device.posId];
          return (
            <Card key={device.posId}>
              <CardHeader className="flex flex-wrap items-start justify-between gap-2">
                <div className="grid min-w-0 gap-1">
                  <CardTitle className="font-mono text-sm break-all">{device.posId}</CardTitle>
                  <StatusBadge status={device.status} toneByStatus={tone}>
                    {t(`sellers.status.${device.status}`)}
                  </StatusBadge>
                  {device.blockedReason ? <span className="text-xs">{device.blockedReason}</span> : null}
                </div>
                <PosStatusButton kind="device" id={device.posId} isBlocked={device.status === "BLOCKED"} />
              </CardHeader>
              <CardContent className="grid gap-4">
                <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
                  <DetailItem label={t("device.tlsRegistered")}>{device.tlsRegistered ? t("yes") : t("no")}</DetailItem>
                  <DetailItem label={t("device.activatedAt")}>
                    <DateTime value={device.activatedAt} />
                  </DetailItem>
                  <DetailItem label={t("device.lastConfigAt")}>
                    {device.lastConfigAt ? <DateTime value={device.lastConfigAt} /> : t("never")}
                  </DetailItem>
                  <DetailItem label={t("device.lastReportAt")}>
                    {device.lastReportAt ? <DateTime value={device.lastReportAt} /> : t("never")}
                  </DetailItem>
                </dl>
                <details className="rounded-md border p-3" open={Boolean(override)}>
                  <summary className="cursor-pointer text-sm font-medium">
                    {override ? t("config.overrideTitle") : t("config.addOverride")}
                  </summary>
                  <p className="my-3 text-sm text-muted-foreground">{t("config.overrideDescription")}</p>
                  <PosConfigForm
                    sellerId={seller.id}
                    posId={device.posId}
                    initial={override ?? emptyPosConfigView}
                    inherited={resolvePosConfig(configs.seller, configs.tenant)}
                    hasOverride={Boolean(override)}
                  />
                </details>
              </CardContent>
            </Card>
          );
        })}
      </section>
    </div>
  );
}
