import { getTranslations } from "next-intl/server";
import type { ComponentProps } from "react";

import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/**
 * A whole page that says why nothing is shown here (not found, forbidden), with a way home. The root not-found and
 * forbidden boundaries load their client code on every page, so this one has none: a plain link, a server-drawn icon.
 */
export async function StatusPage({
  icon,
  title,
  description,
  way,
}: {
  icon: NonNullable<ComponentProps<typeof EmptyState>["icon"]>;
  title: string;
  description: string;
  // Where to go instead; home unless said.
  way?: { href: string; label: string };
}) {
  const t = await getTranslations("common");
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl items-center px-4">
      <EmptyState
        className="w-full"
        headingLevel="h1"
        icon={icon}
        title={title}
        description={description}
        action={
          <Button asChild>
            <a href={way?.href ?? "/"}>{way?.label ?? t("goHome")}</a>
          </Button>
        }
      />
    </main>
  );
}
