import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";

import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { requirePermission } from "@/lib/auth/session";
import { getPosOverview } from "@/lib/pos/sales";

import { PosTabs } from "./_components/pos-tabs";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pos");
  return { title: t("title") };
}

// No loading.tsx in /pos: a STAFF visitor must get forbidden() as a real 403, not a streamed 200.
export default async function PosOverviewPage() {
  await requirePermission("pos.manage");
  const [t, overview] = await Promise.all([getTranslations("pos"), getPosOverview()]);
  const cards = [
    { key: "activeKeys", value: overview.activeKeys, href: "/pos/keys" },
    { key: "sellers", value: overview.sellers, href: "/pos/sellers" },
    { key: "devices", value: overview.devices, href: "/pos/sellers" },
    { key: "blocked", value: overview.blocked, href: "/pos/sellers?status=BLOCKED" },
    { key: "unmatched", value: overview.unmatched, href: "/pos/sales" },
  ] as const;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div>
        <PageHeader title={t("title")} description={t("description")} />
        <PosTabs active="overview" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <Card key={card.key}>
            <CardHeader>
              <CardTitle className="text-sm font-medium text-muted-foreground">{t(`overview.${card.key}`)}</CardTitle>
            </CardHeader>
            <CardContent>
              <Link href={card.href} className="text-3xl font-semibold tabular-nums hover:underline">
                {card.value}
              </Link>
            </CardContent>
          </Card>
        ))}
      </div>
      <p className="text-sm text-muted-foreground">{t("overview.help")}</p>
    </div>
  );
}
