"use client";

import { CheckCircle2Icon, PlugZapIcon, XCircleIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import type { TAppErrorCode } from "@/lib/errors";
import type { TConnectionCheck } from "@/lib/settings/types";
import { checkGatewayConnectionAction } from "../actions";

// What to look at for each way the check can fail (the detail line names the exact error).
const hintKeys: Partial<Record<TAppErrorCode, string>> = {
  UPSTREAM_UNAVAILABLE: "unavailable",
  UPSTREAM_TIMEOUT: "timeout",
  UPSTREAM_REJECTED: "rejected",
};

export function ConnectionCheck() {
  const t = useTranslations("settings.connection");
  const tAll = useTranslations();
  const [result, setResult] = useState<
    | Extract<TConnectionCheck, { ok: true }>
    | (Omit<Extract<TConnectionCheck, { ok: false }>, "messageKey" | "params"> & { message: string })
    | { ok: false; code: TAppErrorCode; message: string; detail?: undefined }
    | null
  >(null);
  const [isPending, startTransition] = useTransition();

  function check() {
    startTransition(async () => {
      const answer = await checkGatewayConnectionAction({});
      if (!answer.ok)
        setResult({ ok: false, code: answer.error.code, message: tAll(`errors.codes.${answer.error.code}`) });
      else if (answer.data.ok) setResult(answer.data);
      else {
        const { messageKey, params, ...failure } = answer.data;
        setResult({ ...failure, message: tAll(messageKey, params) });
      }
    });
  }

  const failedCode = result && !result.ok ? (result.code as TAppErrorCode) : undefined;
  return (
    <div className="grid gap-3">
      <div>
        <Button type="button" variant="outline" onClick={check} disabled={isPending}>
          {isPending ? <Spinner label={t("checking")} /> : <PlugZapIcon aria-hidden />}
          {t("check")}
        </Button>
      </div>
      <div aria-live="polite">
        {result?.ok ? (
          <p className="flex items-center gap-2 text-sm text-success">
            <CheckCircle2Icon className="size-4" aria-hidden />
            {t("ok", { latencyMs: result.latencyMs })}
          </p>
        ) : null}
        {result && !result.ok ? (
          <div className="grid gap-1 text-sm" role="alert">
            <p className="flex items-center gap-2 font-medium text-destructive">
              <XCircleIcon className="size-4" aria-hidden />
              {t("failed")} {result.message}
            </p>
            {result.detail ? (
              <p className="font-mono text-xs break-all text-muted-foreground">{result.detail}</p>
            ) : null}
            {"transactionId" in result && result.transactionId ? (
              <p className="text-xs text-muted-foreground">
                {t("transactionId", { transactionId: result.transactionId })}
              </p>
            ) : null}
            <p className="text-muted-foreground">{t(`hints.${(failedCode && hintKeys[failedCode]) ?? "other"}`)}</p>
          </div>
        ) : null}
      </div>
    </div>
  );
}
