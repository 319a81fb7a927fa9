import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";

import { CreditCardIcon, QrCodeIcon } from "@/components/server-icons";
import { buttonVariants } from "@/components/ui/button";
import { inputClassName } from "@/components/ui/input";
import { getRequestContext } from "@/lib/auth/request-context";
import { isAppError } from "@/lib/errors";
import { formatBRL } from "@/lib/format/money";
import { resolveLocale } from "@/lib/i18n/config";
import { hasPayAccess } from "@/lib/links/pay-access";
import { getPayPageLink, type TInstallmentChoice, type TPayPageLink, ZLinkPaymentUuid } from "@/lib/links/pay-page";
import { log } from "@/lib/log";

import { PayShell } from "./_components/pay-shell";
import { PayStatePanel } from "./_components/pay-state-panel";
import type { TPayStyles } from "./_components/pay-ui";
import { PaymentMethods } from "./_components/payment-methods";
import { VerifyForm } from "./_components/verify-form";

type PayPageProps = { params: Promise<{ uuid: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("pay");
  // The URL is the payer's access to the link: never send it to another origin as a referrer. Same-origin
  // requests keep it, so a form posted without JavaScript carries a real Origin (lib/security/headers.ts).
  return { title: t("metaTitle"), referrer: "same-origin" };
}

async function loadLink(uuid: string): Promise<TPayPageLink | "unavailable" | null> {
  try {
    return await getPayPageLink(uuid, { ip: (await getRequestContext()).ip });
  } catch (error) {
    // Too many unknown links looked up from this address: the gateway is not asked, the page says try later.
    if (isAppError(error) && error.code === "RATE_LIMITED") return "unavailable";
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
  // The app's button and input looks, resolved here: the islands get plain class names (no class merging in the browser).
  const styles: TPayStyles = {
    input: inputClassName,
    button: buttonVariants({ size: "lg" }),
    outlineButton: buttonVariants({ variant: "outline", size: "lg" }),
  };
  if (!isVerified) {
    return (
      <PayShell merchantName={link.merchantName}>
        <VerifyForm
          linkPaymentUuid={link.linkPaymentUuid}
          styles={styles}
          text={{
            title: t("verify.title"),
            description: t("verify.description"),
            label: t("verify.label"),
            hint: t("verify.hint"),
            submit: t("verify.submit"),
          }}
        />
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
  const amountLabel = money(link.amountCents);
  const errorKeys = [
    "cardNumberInvalid",
    "cardBrandUnsupported",
    "holderNameRequired",
    "expiryInvalid",
    "expiryPast",
    "securityCodeInvalid",
  ] as const;
  const card = !link.acceptsCard
    ? null
    : link.cardLockedUntil
      ? { locked: t("card.locked", { until: new Date(link.cardLockedUntil) }) }
      : {
          // A fresh key per rendering: the same form sent twice pays once (lib/links/pay-page.ts).
          formKey: randomUUID(),
          installmentOptions: link.installmentChoices.map((choice) => ({
            installments: choice.installments,
            label: installmentLabel(choice),
          })),
          text: {
            installmentsLegend: t("card.installmentsLegend"),
            noInterest: t("card.noInterest"),
            total: t("card.total", { amount: amountLabel }),
            number: t("card.number"),
            brandDetected: t("card.brandDetected", { brand: "{brand}" }),
            holder: t("card.holder"),
            expiry: t("card.expiry"),
            expiryPlaceholder: t("card.expiryPlaceholder"),
            securityCode: t("card.securityCode"),
            submit: t("card.submit", { amount: amountLabel }),
            submitting: t("card.submitting"),
            errors: Object.fromEntries(errorKeys.map((key) => [key, t(`card.errors.${key}`)])),
          },
        };
  const methods = [
    ...(link.acceptsCard
      ? [{ value: "card" as const, label: t("methods.card"), icon: <CreditCardIcon className="size-4" aria-hidden /> }]
      : []),
    ...(link.acceptsPix
      ? [{ value: "pix" as const, label: t("methods.pix"), icon: <QrCodeIcon className="size-4" aria-hidden /> }]
      : []),
  ];
  return (
    <PayShell merchantName={link.merchantName}>
      <section
        aria-labelledby="pay-summary-title"
        className="grid gap-1 rounded-lg border bg-card p-5 text-card-foreground"
      >
        <h1 id="pay-summary-title" className="text-sm text-muted-foreground">
          {t("summary.title", { merchant: link.merchantName })}
        </h1>
        <p className="text-3xl font-semibold tabular-nums">{amountLabel}</p>
        {link.description ? <p className="text-sm break-words">{link.description}</p> : null}
      </section>
      <PaymentMethods
        linkPaymentUuid={link.linkPaymentUuid}
        legend={t("methods.legend")}
        methods={methods}
        only={t("methods.only", { method: methods[0]?.label ?? "" })}
        card={card}
        pix={
          link.acceptsPix
            ? {
                intro: t("pix.intro"),
                generate: t("pix.generate"),
                newCode: t("pix.newCode"),
                title: t("pix.title"),
                hint: t("pix.hint"),
                qrAlt: t("pix.qrAlt"),
                copyAndPaste: t("pix.copyAndPaste"),
                copy: t("pix.copy"),
                copied: t("pix.copied"),
                waiting: t("pix.waiting"),
                check: t("pix.check"),
              }
            : null
        }
        styles={styles}
      />
    </PayShell>
  );
}
