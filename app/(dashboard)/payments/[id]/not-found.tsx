import { SearchXIcon } from "lucide-react";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

// Neither the mirror nor the gateway knows this id (or it belongs to another client: not found, never forbidden).
export default async function CardPaymentNotFound() {
  const t = await getTranslations("cardPayments.detail.notFound");
  return (
    <EmptyState
      headingLevel="h1"
      icon={SearchXIcon}
      title={t("title")}
      description={t("description")}
      action={
        <Button asChild variant="outline">
          <Link href="/payments">{t("back")}</Link>
        </Button>
      }
    />
  );
}
