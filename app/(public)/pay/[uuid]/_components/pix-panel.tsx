"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

import type { TPixState } from "../actions";
import { PayFormError, PaySpinner, type TPayStyles } from "./pay-ui";

// While the QR is on screen the page asks the server every 2 s whether the link was paid (the
// payer has no session for the staff's live updates); the answer's page refresh shows success.
const pollIntervalMs = 2000;

export type TPixText = {
  intro: string;
  generate: string;
  newCode: string;
  title: string;
  hint: string;
  qrAlt: string;
  copyAndPaste: string;
  copy: string;
  copied: string;
  waiting: string;
  check: string;
};

type PixPanelProps = {
  linkPaymentUuid: string;
  state: TPixState;
  formAction: (formData: FormData) => void;
  isPending: boolean;
  text: TPixText;
  styles: TPayStyles;
};

/**
 * Pix: issues (or reuses) the link's charge through a form, shows the QR (drawn on the server) and the
 * copy-and-paste code as text, and a form to check whether it was paid. Without JavaScript all of it works
 * by posting the forms; with it the page also polls the state and offers a copy button.
 */
export function PixPanel({ linkPaymentUuid, state, formAction, isPending, text, styles }: PixPanelProps) {
  const router = useRouter();
  const [copied, setCopied] = useState<boolean | null>(null);
  // The copy button needs the Clipboard API: shown only once the script runs.
  const [canCopy, setCanCopy] = useState(false);
  const charge = state.status === "ready" ? state.charge : undefined;
  const isWaiting = charge?.status === "waiting";

  // Only once a code is on screen: hydrating the first form then costs no second render.
  useEffect(() => {
    if (isWaiting) setCanCopy(Boolean(navigator.clipboard));
  }, [isWaiting]);

  useEffect(() => {
    if (!isWaiting) return;
    const timer = setInterval(async () => {
      const response = await fetch(`/pay/${linkPaymentUuid}/status`, { cache: "no-store" }).catch(() => null);
      if (!response?.ok) return;
      const { state: linkState } = (await response.json()) as { state: string };
      if (linkState !== "payable") {
        clearInterval(timer);
        router.refresh();
      }
    }, pollIntervalMs);
    return () => clearInterval(timer);
  }, [isWaiting, linkPaymentUuid, router]);

  if (charge && isWaiting && charge.pixCopyAndPaste) {
    const code = charge.pixCopyAndPaste;
    return (
      <section
        aria-labelledby="pay-pix-title"
        className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground"
      >
        <div className="grid gap-1.5">
          <h2 id="pay-pix-title" className="text-base font-semibold">
            {text.title}
          </h2>
          <p className="text-sm text-muted-foreground">{text.hint}</p>
        </div>
        {charge.qrCodeDataUrl ? (
          // A data URL drawn on the server: nothing for next/image to optimise.
          <img
            src={charge.qrCodeDataUrl}
            alt={text.qrAlt}
            width={240}
            height={240}
            className="mx-auto size-60 rounded-md border bg-white p-2"
          />
        ) : null}
        <div className="grid gap-2">
          <label htmlFor="pay-pix-code" className="text-sm font-medium">
            {text.copyAndPaste}
          </label>
          <textarea
            id="pay-pix-code"
            readOnly
            rows={4}
            value={code}
            className="resize-none rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all select-all"
          />
          {canCopy ? (
            <button
              type="button"
              className={`${styles.outlineButton} h-11 w-full`}
              onClick={() =>
                navigator.clipboard.writeText(code).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {text.copy}
            </button>
          ) : null}
          <p role="status" className="text-center text-sm text-muted-foreground">
            {copied ? text.copied : ""}
          </p>
        </div>
        <p className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
          <PaySpinner />
          {text.waiting}
        </p>
        <PayFormError>{state.message}</PayFormError>
        <form action={formAction}>
          <input type="hidden" name="linkPaymentUuid" value={linkPaymentUuid} />
          <input type="hidden" name="intent" value="check" />
          <button type="submit" className={`${styles.button} h-12 w-full text-base`} disabled={isPending}>
            {isPending ? <PaySpinner /> : null}
            {text.check}
          </button>
        </form>
      </section>
    );
  }

  return (
    <form action={formAction} className="grid gap-4 rounded-lg border bg-card p-5 text-card-foreground">
      <input type="hidden" name="linkPaymentUuid" value={linkPaymentUuid} />
      <p className="text-sm text-muted-foreground">{text.intro}</p>
      <PayFormError>{state.message}</PayFormError>
      <button type="submit" className={`${styles.button} h-12 text-base`} disabled={isPending}>
        {isPending ? <PaySpinner /> : null}
        {charge?.status === "expired" ? text.newCode : text.generate}
      </button>
    </form>
  );
}
