import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { z } from "zod";

import { DateTime } from "@/components/date-time";
import { DetailItem } from "@/components/detail-list";
import { LiveRefresh } from "@/components/live/live-refresh";
import { Money } from "@/components/money";
import { PageHeader } from "@/components/page-header";
import { ResourceStatusBadge } from "@/components/resource-status-badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePermission } from "@/lib/auth/session";
import { getPosSale } from "@/lib/pos/sales";

import { PosTabs } from "../../_components/pos-tabs";

type PageProps = { params: Promise<{ id: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.sale");
  return { title: t("title") };
}

export default async function PosSalePage({ params }: PageProps) {
  await requirePermission("pos.manage");
  const { id } = await params;
  const parsed = z.uuid().safeParse(id);
  if (!parsed.success) notFound();
  const sale = await getPosSale(parsed.data);
  if (!sale) notFound();
  const t = await getTranslations("pos");

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <LiveRefresh kinds={["pos_sale"]} id={sale.id} />
      <div>
        <PageHeader title={t("sale.title")} description={<DateTime value={sale.occurredAt} />} />
        <PosTabs active="sales" />
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{t("sale.report")}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
            <DetailItem label={t("sales.columns.amount")}>
              <Money cents={sale.amountCents} />
            </DetailItem>
            <DetailItem label={t("sales.columns.approved")}>
              {sale.approved ? t("yes") : t("no")} · {t("sale.codResp", { code: sale.codResp })}
            </DetailItem>
            <DetailItem label={t("sales.columns.match")}>
              <ResourceStatusBadge resource="posSale" status={sale.matchStatus} />
            </DetailItem>
            <DetailItem label={t("sales.columns.brand")}>
              {sale.cardBrand} · {sale.acquirerNetwork}
            </DetailItem>
            <DetailItem label={t("sale.installments")}>{sale.installments}</DetailItem>
            <DetailItem label={t("sales.columns.authorization")}>
              <span className="font-mono">{sale.authorizationCode}</span>
            </DetailItem>
            <DetailItem label={t("sale.nsuHost")}>
              <span className="font-mono">{sale.nsuHost}</span>
            </DetailItem>
            <DetailItem label={t("sale.nsuGateway")}>
              <span className="font-mono">{sale.nsuGateway}</span>
            </DetailItem>
            <DetailItem label={t("sales.columns.pos")}>
              <span className="font-mono text-xs break-all">{sale.posId}</span>
            </DetailItem>
            <DetailItem label={t("sale.seller")}>
              <Link
                href={`/pos/sellers/${encodeURIComponent(sale.sellerId)}`}
                className="font-mono text-xs break-all underline-offset-4 hover:underline"
              >
                {sale.sellerId}
              </Link>
            </DetailItem>
            <DetailItem label={t("sale.receivedAt")}>
              <DateTime value={sale.receivedAt} />
            </DetailItem>
            <DetailItem label={t("sale.matchedAt")}>
              {sale.matchedAt ? <DateTime value={sale.matchedAt} /> : t("never")}
            </DetailItem>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t("sale.gateway")}</CardTitle>
          <CardDescription>{t("sale.gatewayDescription")}</CardDescription>
        </CardHeader>
        <CardContent>
          {sale.cardPayment ? (
            <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
              <DetailItem label={t("sale.cardPaymentId")}>
                <span className="font-mono text-xs break-all">{sale.cardPayment.id}</span>
              </DetailItem>
              <DetailItem label={t("sales.columns.amount")}>
                <Money cents={sale.cardPayment.amountCents} />
              </DetailItem>
              <DetailItem label={t("sale.gatewayStatus")}>{sale.cardPayment.status}</DetailItem>
              <DetailItem label={t("sales.columns.occurredAt")}>
                <DateTime value={sale.cardPayment.occurredAt} />
              </DetailItem>
              <DetailItem label={t("sales.columns.authorization")}>
                <span className="font-mono">{sale.cardPayment.authorizationNumber ?? "—"}</span>
              </DetailItem>
              <DetailItem label={t("sales.unreported.nsu")}>
                <span className="font-mono">
                  {sale.cardPayment.hostUsn ?? "—"} / {sale.cardPayment.gatewayUsn ?? "—"}
                </span>
              </DetailItem>
            </dl>
          ) : (
            <p className="text-sm text-muted-foreground">
              {sale.approved ? t(`sale.noPayment.${sale.matchStatus}`) : t("sale.declined")}
            </p>
          )}
        </CardContent>
      </Card>

      {sale.conflicts.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle>{t("sale.conflicts", { count: sale.conflicts.length })}</CardTitle>
            <CardDescription>{t("sale.conflictsDescription")}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            {sale.conflicts.map((conflict) => (
              <div key={conflict.id} className="grid min-w-0 gap-1">
                <DateTime value={conflict.receivedAt} className="text-xs text-muted-foreground" />
                <pre className="max-w-full overflow-x-auto rounded-md bg-muted p-2 text-xs">
                  {JSON.stringify(conflict.body, null, 2)}
                </pre>
              </div>
            ))}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
