import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { hasPayAccess } from "@/lib/links/pay-access";
import { getPayPageLink, type TInstallmentChoice, type TPayPageLink, ZLinkPaymentUuid } from "@/lib/links/pay-page";
import { log } from "@/lib/log";

import { PayShell } from "./_components/pay-shell";
import { PayStatePanel } from "./_components/pay-state-panel";
import { PaymentMethods } from "./_components/payment-methods";
import { VerifyForm } from "./_components/verify-form";

type PayPageProps = { params: Promise<{ uuid: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pay");
  // The URL is the payer's access to the link: never send it on as a referrer.
  return { title: t("metaTitle"), referrer: "no-referrer" };
}

async function loadLink(uuid: string): Promise<TPayPageLink | "unavailable" | null> {
  try {
    return await getPayPageLink(uuid);
  } catch (error) {
    log.warn({ err: error, linkPaymentUuid: uuid }, "pay page: link could not be read");
    return "unavailable";
  }
}

// Public: no staff session. Reading cookies makes the page dynamic, so Next answers it with
// Cache-Control no-store (nothing of it is cached, and the card form is not restored on back).
export default async function PayPage({ params }: PayPageProps) {
  const uuid = ZLinkPaymentUuid.safeParse((await params).uuid);
  if (!uuid.success) notFound();
  const [link, isVerified, t, locale] = await Promise.all([
    loadLink(uuid.data),
    hasPayAccess(uuid.data),
    getTranslations("pay"),
    getLocale(),
  ]);
  if (!link) notFound();
  if (link === "unavailable") {
    return (
      <PayShell>
        <PayStatePanel state="unavailable" />
      </PayShell>
    );
  }
  if (link.state !== "payable") {
    return (
      <PayShell merchantName={link.merchantName}>
        <PayStatePanel
          state={link.state}
          paid={isVerified ? { amountCents: link.amountCents, method: link.paidMethod } : undefined}
        />
      </PayShell>
    );
  }
  if (!isVerified) {
    return (
      <PayShell merchantName={link.merchantName}>
        <VerifyForm linkPaymentUuid={link.linkPaymentUuid} />
      </PayShell>
    );
  }
  const money = (cents: number) => formatBRL(cents, resolveLocale(locale));
  const installmentLabel = ({ installments, firstCents, otherCents }: TInstallmentChoice) =>
    installments === 1
      ? t("card.oneInstallment", { amount: money(firstCents) })
      : firstCents === otherCents
        ? t("card.installments", { count: installments, amount: money(firstCents) })
        : t("card.installmentsUneven", { first: money(firstCents), rest: installments - 1, other: money(otherCents) });
  return (
    <PayShell merchantName={link.merchantName}>
      <section
        aria-labelledby="pay-summary-title"
        className="grid gap-1 rounded-lg border bg-card p-5 text-card-foreground"
      >
        <h1 id="pay-summary-title" className="text-sm text-muted-foreground">
          {t("summary.title", { merchant: link.merchantName })}
        </h1>
        <p className="text-3xl font-semibold tabular-nums">{money(link.amountCents)}</p>
        {link.description ? <p className="text-sm break-words">{link.description}</p> : null}
      </section>
      <PaymentMethods
        linkPaymentUuid={link.linkPaymentUuid}
        amountLabel={money(link.amountCents)}
        installmentOptions={link.installmentChoices.map((choice) => ({
          installments: choice.installments,
          label: installmentLabel(choice),
        }))}
        acceptsCard={link.acceptsCard}
        acceptsPix={link.acceptsPix}
        cardLockedUntil={link.cardLockedUntil}
      />
    </PayShell>
  );
}
