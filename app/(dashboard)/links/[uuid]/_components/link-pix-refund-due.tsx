"use client";

import { Undo2Icon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";

import { ConfirmActionButton } from "@/components/confirm-action-button";
import { Money } from "@/components/money";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useActionErrorText } from "@/lib/actions/use-action-error";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import type { TPaymentLinkView } from "@/lib/links/types";

import { refundLinkPixPaymentAction } from "../../actions";
import { useRefreshPaymentLink } from "./use-payment-link";

/** A Pix payment that landed after the link was cancelled: one confirmed click gives it back. */
export function LinkPixRefundDue({ link }: { link: TPaymentLinkView }) {
  const t = useTranslations("links.refundDue");
  const locale = resolveLocale(useLocale());
  const { formText } = useActionErrorText("links");
  const refreshLink = useRefreshPaymentLink(link.linkPaymentUuid);
  // One key per dialog: a double click or a retry of the same confirmation refunds once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const due = link.pixRefundDue;
  if (!due) return null;
  const amount = formatBRL(due.amountCents, locale);

  return (
    <Card role="region" aria-labelledby="refund-due-title" className="border-warning/40">
      <CardHeader>
        <CardTitle id="refund-due-title" className="flex items-center gap-2">
          <Undo2Icon className="size-5 text-warning" aria-hidden="true" />
          {t("title")}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p>{t("description")}</p>
        <p className="flex items-baseline gap-2">
          <span className="text-muted-foreground">{t("amount")}</span>
          <Money cents={due.amountCents} className="text-lg font-semibold" />
          <code className="font-mono text-xs break-all text-muted-foreground">{due.txid}</code>
        </p>
        <div>
          <ConfirmActionButton
            trigger={
              <Button>
                <Undo2Icon aria-hidden="true" />
                {t("button", { amount })}
              </Button>
            }
            onOpenChange={(open) => {
              if (open) setIdempotencyKey(crypto.randomUUID());
            }}
            title={t("confirmTitle")}
            description={t("confirmDescription", { amount })}
            confirmLabel={t("confirm", { amount })}
            action={() =>
              refundLinkPixPaymentAction({
                linkPaymentUuid: link.linkPaymentUuid,
                idempotencyKey,
                amountCents: due.amountCents,
              })
            }
            onSettled={refreshLink}
            successMessage={t("done")}
            errorText={formText}
            errorDisplay="inline"
          />
        </div>
      </CardContent>
    </Card>
  );
}
