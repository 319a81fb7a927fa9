import { ShieldXIcon } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("errors");
  return { title: t("forbiddenTitle") };
}

// Rendered with HTTP 403 by forbidden() (requireAdmin) for a signed-in user without the role.
export default async function Forbidden() {
  const t = await getTranslations();
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl items-center px-4">
      <EmptyState
        className="w-full"
        headingLevel="h1"
        icon={ShieldXIcon}
        title={t("errors.forbiddenTitle")}
        description={t("errors.forbiddenDescription")}
        action={
          <Button asChild>
            <Link href="/">{t("common.goHome")}</Link>
          </Button>
        }
      />
    </main>
  );
}
