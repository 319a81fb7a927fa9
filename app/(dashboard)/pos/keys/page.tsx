import { KeyRoundIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/auth/session";
import { listPosApiKeys } from "@/lib/pos/api-keys";

import { CreatePosKeyDialog } from "../_components/create-pos-key-dialog";
import { PosKeysTable } from "../_components/pos-keys-table";
import { PosTabs } from "../_components/pos-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos.keys");
  return { title: t("title") };
}

export default async function PosKeysPage() {
  await requirePermission("pos.manage");
  const [t, keys] = await Promise.all([getTranslations("pos"), listPosApiKeys()]);

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader title={t("keys.title")} description={t("keys.description")} actions={<CreatePosKeyDialog />} />
        <PosTabs active="keys" />
      </div>
      <PosKeysTable
        rows={keys}
        empty={
          <EmptyState icon={KeyRoundIcon} title={t("keys.empty.title")} description={t("keys.empty.description")} />
        }
      />
    </div>
  );
}
