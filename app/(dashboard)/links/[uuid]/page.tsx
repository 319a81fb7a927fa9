import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import QRCode from "qrcode";

import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/lib/auth/session";
import { formatBRL } from "@/lib/format/money";
import { getPaymentLinkView } from "@/lib/links/payment-links";
import { ZLinkPaymentUuid } from "@/lib/links/schemas";
import type { TPaymentLinkView } from "@/lib/links/types";

import { PaymentLinkLive, type TShareTargets } from "./_components/payment-link-live";

type PaymentLinkPageProps = { params: Promise<{ uuid: string }> };

export async function generateMetadata({ params }: PaymentLinkPageProps): Promise<Metadata> {
  const t = await getTranslations("links.detail");
  return { title: t("metaTitle", { id: (await params).uuid.slice(0, 8) }) };
}

// The payer is in Brazil: the prefilled WhatsApp and e-mail messages are Portuguese whatever the
// staff member's language. They carry the page's address but never the verification code, which
// staff pass on by another channel.
async function toShareTargets(link: TPaymentLinkView): Promise<TShareTargets> {
  const t = await getTranslations({ locale: "pt-BR", namespace: "links.shareMessage" });
  const values = { name: link.payer.name, amount: formatBRL(link.amountCents, "pt-BR"), url: link.paymentUrl };
  const text = link.description
    ? t("textWithDescription", { ...values, description: link.description })
    : t("text", values);
  const subject = t("subject", { amount: values.amount });
  return {
    whatsappHref: `https://wa.me/?text=${encodeURIComponent(text)}`,
    emailHref: `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(text)}`,
  };
}

// No loading.tsx on this route (the list's sits in the `(list)` group): a loading boundary would
// start a 200 response before notFound() could answer 404 for an unknown link.
export default async function PaymentLinkPage({ params }: PaymentLinkPageProps) {
  const user = await requirePermission("payments.view");
  const uuid = ZLinkPaymentUuid.safeParse((await params).uuid);
  if (!uuid.success) notFound();
  // Opening the page reads the gateway (the mirror answers if it cannot): a link can expire or be
  // cancelled upstream without any event telling us.
  const link = await getPaymentLinkView(uuid.data, { refresh: true });
  if (!link) notFound();
  // A PNG of the hosted page's address, drawn here: staff download it or show it on a screen.
  const qrCodeDataUrl = await QRCode.toDataURL(link.paymentUrl, { errorCorrectionLevel: "M", margin: 2, width: 512 });
  return (
    <PaymentLinkLive
      initialLink={link}
      qrCodeDataUrl={qrCodeDataUrl}
      share={await toShareTargets(link)}
      may={{ cancel: can(user, "links.manage"), refund: can(user, "refunds.request") }}
    />
  );
}
