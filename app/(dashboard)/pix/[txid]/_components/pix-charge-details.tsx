"use client";

import { useTranslations } from "next-intl";

import { DetailDates, DetailItem, DetailsCard } from "@/components/detail-list";
import { Money } from "@/components/money";
import type { TPixChargeView } from "@/lib/pix/types";
import { formatCpfOrCnpj } from "@/lib/shared/cpf-cnpj";

export function PixChargeDetails({ charge }: { charge: TPixChargeView }) {
  const t = useTranslations("pix.detail");
  return (
    <DetailsCard title={t("detailsTitle")}>
      <DetailItem label={t("amount")}>
        <Money cents={charge.amountCents} className="text-2xl font-semibold" />
      </DetailItem>
      <DetailItem label={t("txid")}>
        <code className="font-mono text-xs break-all">{charge.txid}</code>
      </DetailItem>
      <DetailDates
        createdAtLabel={t("createdAt")}
        createdAt={charge.createdAt}
        expiresAtLabel={t("expiresAt")}
        expiresAt={charge.expiresAt}
      />
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
    </DetailsCard>
  );
}
