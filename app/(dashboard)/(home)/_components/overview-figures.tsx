import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Money } from "@/components/money";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { TOverview } from "@/lib/overview/overview";

import type { TOverviewHrefs } from "./overview-links";

const linkClass = "underline-offset-4 hover:underline focus-visible:underline";

function Figure({ title, value, children }: { title: string; value: ReactNode; children?: ReactNode }) {
  return (
    <Card className="min-w-0">
      <CardHeader className="pb-2">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1">
        <div className="text-2xl font-semibold tracking-tight break-words">{value}</div>
        {children ? <div className="grid gap-0.5 text-sm text-muted-foreground">{children}</div> : null}
      </CardContent>
    </Card>
  );
}

/** The headline figures; each opens the list of exactly what it counts. Cards stack on a phone. */
export function OverviewFigures({ overview, hrefs }: { overview: TOverview; hrefs: TOverviewHrefs }) {
  const t = useTranslations("overview");
  const { received, pendingPix, openLinks, refundsCreated, refundsProcessing, linkConversion } = overview;
  const refundsInFlight = {
    count: refundsCreated.count + refundsProcessing.count,
    cents: refundsCreated.cents + refundsProcessing.cents,
  };
  const conversion = linkConversion.created ? linkConversion.paid / linkConversion.created : null;

  return (
    <section aria-label={t("title")} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      <Figure title={t("received.title")} value={<Money cents={received.netCents} />}>
        <span>
          {t("received.gross")} <Money cents={received.grossCents} />
        </span>
        <span>
          <Link className={linkClass} href={hrefs.refundsReturned}>
            {t("received.returned")} <Money cents={received.returnedCents} />
          </Link>
        </span>
        <span>{t("received.hint")}</span>
      </Figure>
      <Figure title={t("count.title")} value={t("count.value", { count: received.count })}>
        <span>
          {t("count.averageTicket")} <Money cents={received.averageTicketCents} />
        </span>
      </Figure>
      <Figure
        title={t("pendingPix.title")}
        value={
          <Link className={linkClass} href={hrefs.pixPending}>
            <Money cents={pendingPix.cents} />
          </Link>
        }
      >
        <span>{t("pendingPix.value", { count: pendingPix.count })}</span>
      </Figure>
      <Figure
        title={t("openLinks.title")}
        value={
          <Link className={linkClass} href={hrefs.linksOpen}>
            <Money cents={openLinks.cents} />
          </Link>
        }
      >
        <span>{t("openLinks.value", { count: openLinks.count })}</span>
      </Figure>
      <Figure title={t("refundsProcessing.title")} value={<Money cents={refundsInFlight.cents} />}>
        <Link className={linkClass} href={hrefs.refundsCreated}>
          {t("refundsProcessing.created", { count: refundsCreated.count })} · <Money cents={refundsCreated.cents} />
        </Link>
        <Link className={linkClass} href={hrefs.refundsProcessing}>
          {t("refundsProcessing.processing", { count: refundsProcessing.count })} ·{" "}
          <Money cents={refundsProcessing.cents} />
        </Link>
      </Figure>
      <Figure
        title={t("conversion.title")}
        value={conversion === null ? t("conversion.none") : <FormattedPercent value={conversion} />}
      >
        <Link className={linkClass} href={hrefs.linksPaid}>
          {t("conversion.paid", { count: linkConversion.paid })}
        </Link>
        <Link className={linkClass} href={hrefs.linksCreated}>
          {t("conversion.created", { count: linkConversion.created })}
        </Link>
      </Figure>
    </section>
  );
}

function FormattedPercent({ value }: { value: number }) {
  const t = useTranslations("overview");
  return <span className="tabular-nums">{t("conversion.rate", { value })}</span>;
}
