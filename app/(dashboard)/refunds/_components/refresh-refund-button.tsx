"use client";

import { RefreshCwIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { refreshPixRefundAction } from "../actions";

/** Reads this one refund from the gateway and shows what it says now. */
export function RefreshRefundButton({ pixRefundId }: { pixRefundId: string }) {
  const t = useTranslations("refunds.refresh");
  const { formText } = useActionErrorText("refunds");
  const router = useRouter();
  const [isPending, startTransition] = useTransition();

  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={isPending}
      aria-label={t("label", { pixRefundId })}
      onClick={() =>
        startTransition(async () => {
          const result = await refreshPixRefundAction({ pixRefundId });
          if (result.ok) {
            toast.success(t("done"));
            router.refresh();
          } else {
            toast.error(formText(result.error));
          }
        })
      }
    >
      <RefreshCwIcon aria-hidden="true" className={isPending ? "animate-spin" : undefined} />
      {t("button")}
    </Button>
  );
}
