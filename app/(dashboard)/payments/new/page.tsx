import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { findTerminalSavedCard, findTerminalSavedCards, newTerminalOrderId } from "@/lib/card-payments/terminal";
import { ZCardTokenValue } from "@/lib/saved-cards/schemas";
import type { TCardTokenRow } from "@/lib/saved-cards/types";

import type { TSavedCardOption } from "./_components/terminal-card-fieldset";
import { TerminalForm } from "./_components/terminal-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("cardPayments.terminal");
  return { title: t("title") };
}

const toOption = (card: TCardTokenRow): TSavedCardOption => ({
  token: card.token,
  brandCode: card.brandCode,
  lastFour: card.lastFour,
  expiry: card.expiry,
  status: card.status,
});

// `?token=` (the saved cards page links here with it) pre-selects a saved card.
export default async function NewCardPaymentPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePermission("cards.charge");
  // Saved cards are listed to, and charged by, those who manage them (/cards).
  const managesSavedCards = can(user, "savedCards.manage");
  const { token } = await searchParams;
  const parsedToken = ZCardTokenValue.safeParse(typeof token === "string" ? token : undefined);
  const initialToken = parsedToken.success ? parsedToken.data : null;
  const [savedCards, preselected, t] = await Promise.all([
    managesSavedCards ? findTerminalSavedCards() : [],
    initialToken && managesSavedCards ? findTerminalSavedCard(initialToken) : null,
    getTranslations("cardPayments"),
  ]);
  const options = savedCards.map(toOption);
  if (preselected && !options.some((card) => card.token === preselected.token)) options.unshift(toOption(preselected));

  return (
    <>
      <PageHeader
        title={t("terminal.title")}
        description={t("terminal.description")}
        actions={
          <Button asChild variant="outline">
            <Link href="/payments">{t("terminal.backToList")}</Link>
          </Button>
        }
      />
      <TerminalForm
        defaultOrderId={newTerminalOrderId()}
        savedCards={options}
        initialToken={managesSavedCards ? initialToken : null}
        canSaveCards={managesSavedCards}
      />
    </>
  );
}
