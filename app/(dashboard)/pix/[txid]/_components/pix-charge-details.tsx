"use client";

import { useTranslations } from "next-intl";

import { DateTime } from "@/components/date-time";
import { DetailItem, DetailList } from "@/components/detail-list";
import { Money } from "@/components/money";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { PixChargeView } from "@/lib/pix/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

export function PixChargeDetails({ charge }: { charge: PixChargeView }) {
  const t = useTranslations("pix.detail");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("detailsTitle")}</CardTitle>
      </CardHeader>
      <CardContent>
        <DetailList>
          <DetailItem label={t("amount")}>
            <Money cents={charge.amountCents} className="text-2xl font-semibold" />
          </DetailItem>
          <DetailItem label={t("txid")}>
            <code className="font-mono text-xs break-all">{charge.txid}</code>
          </DetailItem>
          <div className="grid gap-3 sm:grid-cols-2">
            <DetailItem label={t("createdAt")}>
              <DateTime value={charge.createdAt} />
            </DetailItem>
            <DetailItem label={t("expiresAt")}>
              <DateTime value={charge.expiresAt} />
            </DetailItem>
          </div>
          <DetailItem label={t("debtor")}>
            {charge.debtor ? (
              <>
                {charge.debtor.name}
                <span className="block text-muted-foreground tabular-nums">{formatCpfOrCnpj(charge.debtor.document)}</span>
              </>
            ) : (
              "—"
            )}
          </DetailItem>
          <DetailItem label={t("description")}>{charge.description ?? "—"}</DetailItem>
          <DetailItem label={t("userReference")}>{charge.userReference ?? "—"}</DetailItem>
        </DetailList>
      </CardContent>
    </Card>
  );
}
