import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";

import { ShieldXIcon } from "@/components/server-icons";
import { StatusPage } from "@/components/status-page";
import { getCurrentUser } from "@/lib/auth/session";

import { navSectionsFor } from "./(dashboard)/_components/nav-items";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("errors");
  return { title: t("forbiddenTitle") };
}

// Rendered with HTTP 403 by forbidden() (requirePermission) for a signed-in person whose role lacks the permission.
// Home itself may be out of reach (a custom role without payments), so the way out is the first page they may open.
export default async function Forbidden() {
  const [t, nav, user] = await Promise.all([getTranslations("errors"), getTranslations("nav"), getCurrentUser()]);
  const first = user ? navSectionsFor(user.permissions)[0]?.items[0] : undefined;
  const way = first
    ? { href: first.href, label: t("goTo", { page: nav(first.key) }) }
    : { href: "/account/security", label: t("goToAccount") };
  return (
    <StatusPage icon={ShieldXIcon} title={t("forbiddenTitle")} description={t("forbiddenDescription")} way={way} />
  );
}
