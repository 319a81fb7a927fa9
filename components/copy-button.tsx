"use client";

import { CheckIcon, CopyIcon, XIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";

import { Button, type TButtonProps } from "@/components/ui/button";

type CopyButtonProps = {
  value: string;
  /** Accessible name, e.g. "Copy Pix copy-and-paste code"; defaults to "Copy". */
  label?: string;
  /** Show the label next to the icon instead of an icon-only button. */
  isLabelVisible?: boolean;
} & Pick<TButtonProps, "variant" | "size" | "className">;

type CopyState = "idle" | "copied" | "failed";

// Feedback stays beside the button (icon, and a status line for screen readers) rather than in a
// toast: the payer's page has no toaster, and this works the same everywhere.
export function CopyButton({
  value,
  label,
  isLabelVisible = false,
  variant = "outline",
  size,
  className,
}: CopyButtonProps) {
  const t = useTranslations("common");
  const [state, setState] = useState<CopyState>("idle");
  const name = label ?? t("copy");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), state === "copied" ? 2000 : 6000);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // Clipboard access needs a secure context and permission; say how to do it by hand.
      setState("failed");
    }
  }

  const Icon = state === "copied" ? CheckIcon : state === "failed" ? XIcon : CopyIcon;
  const message = state === "copied" ? t("copied") : state === "failed" ? t("copyFailed") : "";
  return (
    <>
      <Button
        variant={variant}
        size={size ?? (isLabelVisible ? "sm" : "icon-sm")}
        className={className}
        aria-label={isLabelVisible ? undefined : name}
        title={state === "failed" ? message : undefined}
        onClick={copy}
      >
        <Icon aria-hidden="true" />
        {isLabelVisible ? <span>{name}</span> : null}
      </Button>
      <span role="status" className="sr-only">
        {message}
      </span>
    </>
  );
}
