"use client";

import { PrinterIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { flushSync } from "react-dom";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

type TReceiptKind = "customer" | "merchant" | "cancellationCustomer" | "cancellationMerchant";

// Printing shows only the chosen receipt: everything else on the page is hidden by this print stylesheet.
const printStyles = `@media print {
  body * { visibility: hidden !important; }
  [data-receipt-print="active"], [data-receipt-print="active"] * { visibility: visible !important; }
  [data-receipt-print="active"] { position: absolute; inset: 0 auto auto 0; width: 100%; border: 0; box-shadow: none; }
  [data-receipt-print="active"] [data-receipt-actions] { display: none; }
}`;

type CardPaymentReceiptsProps = {
  customerReceipt: string | null;
  merchantReceipt: string | null;
  cancellationCustomerReceipt?: string | null;
  cancellationMerchantReceipt?: string | null;
};

/**
 * The customer's and the merchant's receipts as the gateway formatted them (cupomCliente, cupomEstabelecimento),
 * and those of the cancellation answer (2.4) when this app cancelled the payment.
 */
export function CardPaymentReceipts(props: CardPaymentReceiptsProps) {
  const t = useTranslations("cardPayments.detail.receipts");
  const receipts = [
    { kind: "customer" as const, text: props.customerReceipt },
    { kind: "merchant" as const, text: props.merchantReceipt },
    { kind: "cancellationCustomer" as const, text: props.cancellationCustomerReceipt ?? null },
    { kind: "cancellationMerchant" as const, text: props.cancellationMerchantReceipt ?? null },
  ].filter((receipt): receipt is { kind: TReceiptKind; text: string } => Boolean(receipt.text));
  const [printing, setPrinting] = useState<TReceiptKind | null>(null);
  // Ctrl+P without the button prints the first receipt.
  const active = printing ?? receipts[0]?.kind ?? null;

  function print(kind: TReceiptKind) {
    flushSync(() => setPrinting(kind));
    window.print();
    setPrinting(null);
  }

  if (receipts.length === 0) {
    return (
      <Card className="print:hidden">
        <CardHeader>
          <CardTitle>{t("title")}</CardTitle>
          <CardDescription>{t("none")}</CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return (
    <section aria-labelledby="card-payment-receipts-title" className="grid gap-3">
      <style>{printStyles}</style>
      <h2 id="card-payment-receipts-title" className="text-lg font-semibold print:hidden">
        {t("title")}
      </h2>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {receipts.map(({ kind, text }) => (
          <Card
            key={kind}
            data-receipt-print={active === kind ? "active" : undefined}
            aria-labelledby={`receipt-${kind}`}
          >
            <CardHeader className="flex flex-row items-center justify-between gap-3">
              <CardTitle id={`receipt-${kind}`}>{t(kind)}</CardTitle>
              <div data-receipt-actions>
                <Button variant="outline" size="sm" onClick={() => print(kind)}>
                  <PrinterIcon aria-hidden="true" />
                  {t("print")}
                </Button>
              </div>
            </CardHeader>
            <CardContent>
              <pre
                className="overflow-x-auto font-mono text-xs leading-snug whitespace-pre"
                data-testid={`card-payment-receipt-${kind}`}
              >
                {text}
              </pre>
            </CardContent>
          </Card>
        ))}
      </div>
    </section>
  );
}
