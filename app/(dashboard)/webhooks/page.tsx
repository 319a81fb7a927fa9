import { WebhookIcon } from "lucide-react";
import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { DataTableError } from "@/components/data-table/data-table-error";
import { PageHeader } from "@/components/page-header";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/auth/session";
import { isAppError, type TAppErrorCode } from "@/lib/errors";
import { listWebhooksForAdmin, type TWebhookAdminRow } from "@/lib/webhooks/admin";
import { webhookReceiverUrl } from "@/lib/webhooks/receiver-url";

import { ReconciliationPanel } from "./_components/reconciliation-panel";
import { RegisterWebhookDialog } from "./_components/register-webhook-dialog";
import { WebhooksTable } from "./_components/webhooks-table";
import { WebhooksTabs } from "./_components/webhooks-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("webhooks");
  return { title: t("title") };
}

// No loading.tsx above this page: a STAFF visitor must get forbidden() as a real 403 status,
// which a streamed Suspense fallback would already have sent as 200.
export default async function WebhooksPage() {
  const user = await requirePermission("webhooks.manage");
  const [t, tErrors] = await Promise.all([getTranslations("webhooks"), getTranslations("errors.codes")]);
  let rows: TWebhookAdminRow[] | null = null;
  let errorCode: TAppErrorCode | undefined;
  try {
    rows = await listWebhooksForAdmin();
  } catch (error) {
    // The gateway being down is worth a retry button, not the error page.
    if (!isAppError(error)) throw error;
    errorCode = error.code;
  }

  return (
    // minmax(0, 1fr): a wide table scrolls inside its own box instead of widening the page.
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader
          title={t("title")}
          description={t("description")}
          actions={<RegisterWebhookDialog defaultUrlHint={webhookReceiverUrl("…")} />}
        />
        <WebhooksTabs active="webhooks" permissions={user.permissions} />
      </div>
      {rows ? (
        <WebhooksTable
          rows={rows}
          empty={
            <EmptyState icon={WebhookIcon} title={t("list.empty.title")} description={t("list.empty.description")} />
          }
        />
      ) : (
        <DataTableError description={errorCode ? tErrors(errorCode) : undefined} />
      )}
      <ReconciliationPanel />
    </div>
  );
}
