"use client";

import { RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

import { refreshCardPaymentAction } from "../../actions";
import { useCardPaymentErrorText } from "./use-card-payment-error-text";

/** Reads the payment from the gateway (GET /payments/{id}) into the mirror, then renders the page again. */
export function RefreshCardPaymentButton({ paymentId }: { paymentId: string }) {
  const t = useTranslations("cardPayments.detail.refresh");
  const errorText = useCardPaymentErrorText();
  const router = useRouter();
  const [isPending, startTransition] = useTransition();

  function refresh() {
    startTransition(async () => {
      const result = await refreshCardPaymentAction({ paymentId });
      if (!result.ok) {
        toast.error(errorText(result.error));
        return;
      }
      toast.success(t("done"));
      router.refresh();
    });
  }

  return (
    <Button variant="outline" disabled={isPending} onClick={refresh}>
      {isPending ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
      {t("button")}
    </Button>
  );
}
