"use client";

import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";

import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";

type PosScreenPreviewProps = { logoUrl: string | null; primaryColor: string | null; secondaryColor: string | null };

const fallbackPrimary = "#111827";
const fallbackSecondary = "#ffffff";
const hexColor = /^#[0-9a-fA-F]{6}$/;

/** A phone-sized sketch of the POS payment screen with this branding: logo, colours, a sample amount, "Pagar". */
export function PosScreenPreview({ logoUrl, primaryColor, secondaryColor }: PosScreenPreviewProps) {
  const t = useTranslations("pos.config.preview");
  const locale = resolveLocale(useLocale());
  const primary = primaryColor && hexColor.test(primaryColor) ? primaryColor : fallbackPrimary;
  const secondary = secondaryColor && hexColor.test(secondaryColor) ? secondaryColor : fallbackSecondary;
  // Only an https URL is drawn, as only that is saved.
  const logo = logoUrl?.startsWith("https://") ? logoUrl : null;
  // The dashboard's CSP (img-src) may refuse another origin: say so instead of a broken image.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);

  return (
    <figure className="grid justify-items-center gap-2">
      <div
        role="img"
        aria-label={t("label")}
        className="flex h-[22rem] w-44 flex-col items-center justify-between rounded-[1.75rem] border-4 border-foreground/80 p-4 shadow-md"
        style={{ backgroundColor: secondary, color: primary }}
      >
        <div className="flex h-12 w-full items-center justify-center">
          {logo && failedUrl !== logo ? (
            <img
              src={logo}
              alt=""
              className="max-h-12 max-w-full object-contain"
              referrerPolicy="no-referrer"
              onError={() => setFailedUrl(logo)}
            />
          ) : (
            <span className="text-center text-xs opacity-70">{logo ? t("logoNotShown") : t("noLogo")}</span>
          )}
        </div>
        <div className="grid justify-items-center gap-1 text-center">
          <span className="text-xs opacity-80">{t("amountLabel")}</span>
          <span className="text-2xl font-semibold tabular-nums">{formatBRL(4_990, locale)}</span>
        </div>
        <span
          className="w-full rounded-full py-2 text-center text-sm font-semibold"
          style={{ backgroundColor: primary, color: secondary }}
        >
          Pagar
        </span>
      </div>
      <figcaption className="text-xs text-muted-foreground">{t("caption")}</figcaption>
    </figure>
  );
}
