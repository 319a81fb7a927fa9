import { WalletIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";

export function AppBrand() {
  const t = useTranslations("common");
  return (
    <Link
      href="/pix"
      className="flex items-center gap-2 rounded-md text-sm font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <WalletIcon className="size-4" aria-hidden="true" />
      </span>
      {t("appName")}
    </Link>
  );
}
