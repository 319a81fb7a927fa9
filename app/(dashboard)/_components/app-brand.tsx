import { WalletIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";

/** `isCompactOnPhone`: the header's copy keeps only the logo on phones, leaving room for the header's buttons. */
export function AppBrand({ isCompactOnPhone = false }: { isCompactOnPhone?: boolean }) {
  const t = useTranslations("common");
  return (
    <Link
      href="/pix"
      className="flex items-center gap-2 rounded-md text-sm font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <WalletIcon className="size-4" aria-hidden="true" />
      </span>
      <span className={isCompactOnPhone ? "max-sm:sr-only" : undefined}>{t("appName")}</span>
    </Link>
  );
}
