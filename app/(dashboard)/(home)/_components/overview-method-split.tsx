import Link from "next/link";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Money } from "@/components/money";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { TOverview } from "@/lib/overview/overview";

import type { TOverviewHrefs } from "./overview-links";

const linkClass = "underline-offset-4 hover:underline focus-visible:underline";

type TRow = {
  key: string;
  label: string;
  count: ReactNode;
  gross: ReactNode;
  returned: ReactNode;
  net: number;
  note?: ReactNode;
};

// A list of definition rows rather than a wide table, so a 390 px phone never scrolls sideways.
export function OverviewMethodSplit({ overview, hrefs }: { overview: TOverview; hrefs: TOverviewHrefs }) {
  const t = useTranslations("overview.split");
  const { pix, card, link, received } = overview;
  const rows: TRow[] = [
    {
      key: "pix",
      label: t("pix"),
      count: pix.count,
      gross: (
        <Link className={linkClass} href={hrefs.pixReceived}>
          <Money cents={pix.cents} />
        </Link>
      ),
      returned: (
        <Link className={linkClass} href={hrefs.refundsReturned}>
          <Money cents={pix.refunded.cents} />
        </Link>
      ),
      net: pix.netCents,
      note: pix.viaLink.count ? (
        <>
          {t("viaLink", { count: pix.viaLink.count })}: <Money cents={pix.viaLink.cents} />
        </>
      ) : null,
    },
    {
      key: "card",
      label: t("card"),
      count: (
        <>
          <Link className={linkClass} href={hrefs.cardApproved}>
            {t("approved", { count: card.approvedCount })}
          </Link>
          {" · "}
          <Link className={linkClass} href={hrefs.cardCancelled}>
            {t("cancelled", { count: card.cancelled.count })}
          </Link>
        </>
      ),
      gross: <Money cents={card.cents} />,
      returned: (
        <Link className={linkClass} href={hrefs.cardCancelled}>
          <Money cents={card.cancelled.cents} />
        </Link>
      ),
      net: card.netCents,
      note: card.viaLink.count ? (
        <>
          {t("viaLink", { count: card.viaLink.count })}: <Money cents={card.viaLink.cents} />
        </>
      ) : null,
    },
  ];
  if (link.count)
    rows.push({
      key: "link",
      label: t("link"),
      count: link.count,
      gross: <Money cents={link.cents} />,
      returned: <Money cents={0} />,
      net: link.cents,
      note: t("linkNote"),
    });

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {rows.map((row) => (
            <li key={row.key} className="grid gap-2 py-3 first:pt-0">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <span className="font-medium">{row.label}</span>
                <Money cents={row.net} className="font-semibold" />
              </div>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
                <div className="min-w-0">
                  <dt className="text-muted-foreground">{t("count")}</dt>
                  <dd>{row.count}</dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-muted-foreground">{t("gross")}</dt>
                  <dd>{row.gross}</dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-muted-foreground">{t("returned")}</dt>
                  <dd>{row.returned}</dd>
                </div>
              </dl>
              {row.note ? <p className="text-xs text-muted-foreground">{row.note}</p> : null}
            </li>
          ))}
          <li className="flex flex-wrap items-baseline justify-between gap-2 pt-3">
            <span className="font-medium">{t("total")}</span>
            <Money cents={received.netCents} className="font-semibold" />
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}
