import { KeyRoundIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { DateTime } from "@/components/date-time";
import { PageHeader } from "@/components/page-header";
import { StatusBadge } from "@/components/status-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { requireAdmin } from "@/lib/auth/session";
import { listPosApiKeys } from "@/lib/pos/api-keys";

import { CreatePosKeyDialog } from "../_components/create-pos-key-dialog";
import { PosKeyRowActions } from "../_components/pos-key-row-actions";
import { PosTabs } from "../_components/pos-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.keys");
  return { title: t("title") };
}

export default async function PosKeysPage() {
  await requireAdmin();
  const [t, keys] = await Promise.all([getTranslations("pos"), listPosApiKeys()]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader title={t("keys.title")} description={t("keys.description")} actions={<CreatePosKeyDialog />} />
        <PosTabs active="keys" />
      </div>
      {keys.length === 0 ? (
        <EmptyState icon={KeyRoundIcon} title={t("keys.empty.title")} description={t("keys.empty.description")} />
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t("keys.columns.name")}</TableHead>
              <TableHead>{t("keys.columns.prefix")}</TableHead>
              <TableHead>{t("keys.columns.status")}</TableHead>
              <TableHead>{t("keys.columns.createdAt")}</TableHead>
              <TableHead>{t("keys.columns.lastUsedAt")}</TableHead>
              <TableHead>{t("keys.columns.expiresAt")}</TableHead>
              <TableHead>{t("keys.columns.sellerToken")}</TableHead>
              <TableHead>{t("keys.columns.sellers")}</TableHead>
              <TableHead>
                <span className="sr-only">{t("keys.columns.actions")}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {keys.map((key) => (
              <TableRow key={key.id}>
                <TableCell className="font-medium">
                  {key.name}
                  <div className="font-mono text-xs text-muted-foreground" title={t("keys.tenant")}>
                    {key.tenantId.slice(0, 8)}
                  </div>
                </TableCell>
                <TableCell className="font-mono text-xs">{key.prefix}</TableCell>
                <TableCell>
                  <StatusBadge
                    status={key.status}
                    toneByStatus={{ active: "success", expired: "warning", revoked: "danger" }}
                  >
                    {t(`keys.status.${key.status}`)}
                  </StatusBadge>
                </TableCell>
                <TableCell>
                  <DateTime value={key.createdAt} />
                  {key.createdByEmail ? (
                    <div className="text-xs text-muted-foreground">{key.createdByEmail}</div>
                  ) : null}
                </TableCell>
                <TableCell>{key.lastUsedAt ? <DateTime value={key.lastUsedAt} /> : t("never")}</TableCell>
                <TableCell>{key.expiresAt ? <DateTime value={key.expiresAt} /> : t("keys.noExpiry")}</TableCell>
                <TableCell className="text-xs">
                  {key.sellerTokenMode ? (
                    <>
                      {t(`keys.verification.modes.${key.sellerTokenMode}`)} · {key.sellerTokenAlgorithm}
                    </>
                  ) : (
                    <span className="text-muted-foreground">{t("keys.verification.none")}</span>
                  )}
                </TableCell>
                <TableCell className="tabular-nums">{key.sellerCount}</TableCell>
                <TableCell className="text-right">
                  <PosKeyRowActions
                    keyId={key.id}
                    name={key.name}
                    prefix={key.prefix}
                    isRevoked={key.status === "revoked"}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
