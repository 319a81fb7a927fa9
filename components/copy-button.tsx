"use client";

import { CheckIcon, CopyIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { toast } from "sonner";

import { Button, type ButtonProps } from "@/components/ui/button";

type CopyButtonProps = {
  value: string;
  /** Accessible name, e.g. "Copy Pix copy-and-paste code"; defaults to "Copy". */
  label?: string;
  /** Show the label next to the icon instead of an icon-only button. */
  isLabelVisible?: boolean;
} & Pick<ButtonProps, "variant" | "size" | "className">;

export function CopyButton({ value, label, isLabelVisible = false, variant = "outline", size, className }: CopyButtonProps) {
  const t = useTranslations("common");
  const [hasCopied, setHasCopied] = useState(false);
  const name = label ?? t("copy");

  useEffect(() => {
    if (!hasCopied) return;
    const timer = setTimeout(() => setHasCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [hasCopied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setHasCopied(true);
      toast.success(t("copied"));
    } catch {
      // Clipboard access needs a secure context and permission; say how to do it by hand.
      toast.error(t("copyFailed"));
    }
  }

  const Icon = hasCopied ? CheckIcon : CopyIcon;
  return (
    <Button
      variant={variant}
      size={size ?? (isLabelVisible ? "sm" : "icon-sm")}
      className={className}
      aria-label={isLabelVisible ? undefined : name}
      onClick={copy}
    >
      <Icon aria-hidden="true" />
      {isLabelVisible ? <span>{name}</span> : null}
    </Button>
  );
}
