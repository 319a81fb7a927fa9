import { useLocale, useTranslations } from "next-intl";

import { Money } from "@/components/money";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TCardPaymentView } from "@/lib/card-payments/views";
import { formatDate } from "@/lib/format/date-time";
import { resolveLocale } from "@/lib/i18n/config";

// A due date is a calendar day (YYYY-MM-DD) already in Brasília: noon there is that same day whatever the zone.
const calendarDay = (day: string) => new Date(`${day}T12:00:00-03:00`);

/** The schedule the gateway generated (spec 2.3); its total must equal the payment's amount. */
export function CardPaymentInstallments({ payment }: { payment: TCardPaymentView }) {
  const t = useTranslations("cardPayments.detail.installments");
  const locale = resolveLocale(useLocale());
  const { installments, installmentsTotalCents, amountCents } = payment;
  const isTotalOff = installments.length > 0 && installmentsTotalCents !== amountCents;

  return (
    <Card role="region" aria-labelledby="card-payment-installments-title" className="print:hidden">
      <CardHeader>
        <CardTitle id="card-payment-installments-title">{t("title")}</CardTitle>
        {installments.length === 0 ? <CardDescription>{t("none")}</CardDescription> : null}
      </CardHeader>
      {installments.length > 0 ? (
        <CardContent className="grid gap-3">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("number")}</TableHead>
                <TableHead className="text-right">{t("amount")}</TableHead>
                <TableHead>{t("dueDate")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {installments.map((installment) => (
                <TableRow key={installment.number}>
                  <TableCell className="tabular-nums">
                    {t("ofTotal", { number: installment.number, total: installments.length })}
                  </TableCell>
                  <TableCell className="text-right">
                    <Money cents={installment.amountCents} />
                  </TableCell>
                  <TableCell className="tabular-nums">
                    <time dateTime={installment.dueDate}>{formatDate(calendarDay(installment.dueDate), locale)}</time>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell className="font-medium">{t("total")}</TableCell>
                <TableCell className="text-right font-medium" data-testid="card-payment-installments-total">
                  <Money cents={installmentsTotalCents} />
                </TableCell>
                <TableCell />
              </TableRow>
            </TableFooter>
          </Table>
          {isTotalOff ? (
            <p role="alert" className="text-sm text-destructive">
              {t("totalMismatch")}
            </p>
          ) : null}
        </CardContent>
      ) : null}
    </Card>
  );
}
