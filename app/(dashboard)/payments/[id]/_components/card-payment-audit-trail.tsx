import Link from "next/link";
import { useTranslations } from "next-intl";

import { DateTime } from "@/components/date-time";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { TCardPaymentAuditEntry } from "@/lib/card-payments/detail";

type CardPaymentAuditTrailProps = { entries: TCardPaymentAuditEntry[]; paymentId: string; canOpenAuditLog: boolean };

/** Who did what to this payment (cancel attempts), newest first; admins follow the link to the full audit log. */
export function CardPaymentAuditTrail({ entries, paymentId, canOpenAuditLog }: CardPaymentAuditTrailProps) {
  const t = useTranslations("cardPayments.detail.audit");
  const tAudit = useTranslations("audit");
  return (
    <Card role="region" aria-labelledby="card-payment-audit-title" className="print:hidden">
      <CardHeader>
        <CardTitle id="card-payment-audit-title">{t("title")}</CardTitle>
        {entries.length === 0 ? <CardDescription>{t("empty")}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid gap-3">
        {entries.length > 0 ? (
          <ol className="grid gap-2 text-sm">
            {entries.map((entry) => (
              <li key={entry.id} className="flex flex-wrap gap-x-3">
                <DateTime value={entry.occurredAt} className="text-muted-foreground" />
                <span className="font-medium">
                  {tAudit.has(`actions.${entry.action}`) ? tAudit(`actions.${entry.action}`) : entry.action}
                </span>
                <span className="text-muted-foreground">{entry.actorEmail ?? tAudit("system")}</span>
              </li>
            ))}
          </ol>
        ) : null}
        {canOpenAuditLog ? (
          <Link
            href={`/audit?resourceType=card_payment&resourceId=${encodeURIComponent(paymentId)}`}
            className="text-sm underline"
          >
            {t("openLog")}
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}
