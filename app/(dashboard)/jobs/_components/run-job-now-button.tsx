"use client";

import { PlayIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useActionErrorText } from "@/lib/actions/use-action-error";

import { runJobNowAction } from "../actions";

type RunJobNowButtonProps = { name: string; label: string; isRequested: boolean };

export function RunJobNowButton({ name, label, isRequested }: RunJobNowButtonProps) {
  const t = useTranslations("jobs");
  const { formText } = useActionErrorText("jobs");
  const router = useRouter();
  const [isPending, startTransition] = useTransition();

  function request() {
    startTransition(async () => {
      const result = await runJobNowAction({ name });
      if (!result.ok) return void toast.error(formText(result.error));
      toast.success(t("toast.requested", { job: label }));
      router.refresh();
    });
  }

  return (
    <Button variant="outline" size="sm" onClick={request} disabled={isPending || isRequested}>
      {isPending ? <Spinner /> : <PlayIcon aria-hidden="true" />}
      {isPending ? t("requesting") : isRequested ? t("requested") : t("runNow")}
      <span className="sr-only">: {label}</span>
    </Button>
  );
}
