"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState, useTransition } from "react";

import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";

import { startPixAction, type TPixState } from "../actions";

// While the QR is on screen the page asks the server every 2 s whether the link was paid (the
// payer has no session for the staff's live updates); the answer's page refresh shows success.
const pollIntervalMs = 2000;

/** Pix: issues (or reuses) the link's charge on request, shows the QR and the copy-and-paste code. */
export function PixPanel({ linkPaymentUuid }: { linkPaymentUuid: string }) {
  const t = useTranslations("pay.pix");
  const router = useRouter();
  const [result, setResult] = useState<TPixState | null>(null);
  const [isPending, startTransition] = useTransition();
  const charge = result?.status === "ready" ? result.charge : null;
  const isWaiting = charge?.status === "waiting";

  useEffect(() => {
    if (!isWaiting) return;
    const timer = setInterval(async () => {
      const response = await fetch(`/pay/${linkPaymentUuid}/status`, { cache: "no-store" }).catch(() => null);
      if (!response?.ok) return;
      const { state } = (await response.json()) as { state: string };
      if (state !== "payable") {
        clearInterval(timer);
        router.refresh();
      }
    }, pollIntervalMs);
    return () => clearInterval(timer);
  }, [isWaiting, linkPaymentUuid, router]);

  function start() {
    startTransition(async () => setResult(await startPixAction(linkPaymentUuid)));
  }

  if (charge && charge.status === "waiting" && charge.pixCopyAndPaste) {
    return (
      <section
        aria-labelledby="pay-pix-title"
        className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground"
      >
        <div className="grid gap-1.5">
          <h2 id="pay-pix-title" className="text-base font-semibold">
            {t("title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("hint")}</p>
        </div>
        {charge.qrCodeDataUrl ? (
          // A data URL drawn on the server: nothing for next/image to optimise.
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={charge.qrCodeDataUrl}
            alt={t("qrAlt")}
            width={240}
            height={240}
            className="mx-auto size-60 rounded-md border bg-white p-2"
          />
        ) : null}
        <div className="grid gap-2">
          <label htmlFor="pay-pix-code" className="text-sm font-medium">
            {t("copyAndPaste")}
          </label>
          <textarea
            id="pay-pix-code"
            readOnly
            rows={3}
            value={charge.pixCopyAndPaste}
            className="resize-none rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all"
          />
          <CopyButton value={charge.pixCopyAndPaste} label={t("copy")} isLabelVisible className="h-11 w-full" />
        </div>
        <p role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
          <Spinner label={t("waiting")} />
          <span aria-hidden="true">{t("waiting")}</span>
        </p>
      </section>
    );
  }

  const message =
    charge?.status === "expired"
      ? t("expired")
      : result && result.status !== "ready"
        ? t(`outcome.${result.status}`)
        : null;
  return (
    <section className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground">
      <p className="text-sm text-muted-foreground">{t("intro")}</p>
      <FormError>{message}</FormError>
      <Button size="lg" className="h-12 text-base" onClick={start} disabled={isPending}>
        {isPending ? <Spinner /> : null}
        {charge?.status === "expired" ? t("newCode") : t("generate")}
      </Button>
    </section>
  );
}
