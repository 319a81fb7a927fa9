import "server-only";
import { z } from "zod";
import type { TRateLimitWindow } from "@/lib/auth/rate-limit-window";
import { getPayPageEnv } from "@/lib/config/pay-page-env";
import { db } from "@/lib/db/client";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { readThroughMirror } from "@/lib/mirror/read-through";
import { getCardLock } from "./card-attempts";
import { refreshPaymentLink } from "./mirror";
import {
  claimUnknownLinkLookup,
  forgetUnknownLink,
  isRecentlyUnknownLink,
  releaseFoundLinkLookup,
  rememberUnknownLink,
} from "./pay-page-lookup";
import { syncLinkPixPayment } from "./pix";
import { isLinkSettledByPix, type TPixSettlementFields } from "./settlement";
import { paymentLinkStatusCodes } from "./types";

export { ZLinkPaymentUuid } from "./schemas";

// The hosted payment page: the payer sees no staff data, no internal id but the public uuid, never the code.

export type TPayPageState = "payable" | "paid" | "expired" | "cancelled" | "unavailable";
export type TInstallmentChoice = { installments: number; firstCents: number; otherCents: number };

export type TPayPageLink = {
  linkPaymentUuid: string;
  state: TPayPageState;
  merchantName: string;
  description: string | null;
  amountCents: number;
  installmentChoices: TInstallmentChoice[];
  acceptsCard: boolean;
  acceptsPix: boolean;
  paidMethod: "card" | "pix" | null;
  // Card attempts for this link are used up until then (ISO 8601); Pix stays open.
  cardLockedUntil: string | null;
};

// An open link's mirror older than this is read upstream first (it may have changed).
const openLinkMaxAgeMs = 10_000;

export function stateOf(
  link: Pick<PaymentLink, "statusCode" | "expiresAt"> & TPixSettlementFields,
  now: Date,
): TPayPageState {
  // Paid by Pix: upstream still says CREATED (lib/links/settlement.ts), and the link is paid all the same.
  if (isLinkSettledByPix(link)) return "paid";
  switch (link.statusCode) {
    case paymentLinkStatusCodes.CREATED:
      return link.expiresAt.getTime() > now.getTime() ? "payable" : "expired";
    case paymentLinkStatusCodes.EXPIRED:
      return "expired";
    case paymentLinkStatusCodes.PAID:
      return "paid";
    case paymentLinkStatusCodes.CANCELLED:
      return "cancelled";
    default:
      return "unavailable";
  }
}

const ZInstallmentOptions = z.array(z.object({ installments: z.number().int(), amountCents: z.number().int() }));

// Upstream's amountInstallment is the first installment, which carries the leftover cents.
export function installmentChoicesOf(
  link: Pick<PaymentLink, "installmentOptions" | "amountCents">,
): TInstallmentChoice[] {
  const parsed = ZInstallmentOptions.safeParse(link.installmentOptions);
  if (!parsed.success) return [{ installments: 1, firstCents: link.amountCents, otherCents: 0 }];
  return parsed.data.map(({ installments, amountCents }) => ({
    installments,
    firstCents: amountCents,
    otherCents: installments > 1 ? Math.round((link.amountCents - amountCents) / (installments - 1)) : 0,
  }));
}

function toPayPageLink(link: PaymentLink, now: Date, cardLockedUntil: string | null): TPayPageLink {
  return {
    linkPaymentUuid: link.linkPaymentUuid,
    state: stateOf(link, now),
    merchantName: getPayPageEnv().merchantDisplayName,
    description: link.description,
    amountCents: link.amountCents,
    installmentChoices: installmentChoicesOf(link),
    acceptsCard: link.acceptedMethodCodes.includes(paymentLinkMethodCodes.CREDIT_CARD),
    acceptsPix: link.acceptedMethodCodes.includes(paymentLinkMethodCodes.PIX),
    paidMethod:
      isLinkSettledByPix(link) || link.paidMethodCode === paymentLinkMethodCodes.PIX
        ? "pix"
        : link.paidMethodCode === paymentLinkMethodCodes.CREDIT_CARD
          ? "card"
          : null,
    cardLockedUntil,
  };
}
export async function loadLink(
  linkPaymentUuid: string,
  now: Date,
  ip: string | null = null,
): Promise<PaymentLink | null> {
  const mirrored = await db.paymentLink.findUnique({ where: { linkPaymentUuid } });
  if (
    mirrored &&
    (mirrored.statusCode !== paymentLinkStatusCodes.CREATED ||
      isLinkSettledByPix(mirrored) ||
      now.getTime() - mirrored.syncedAt.getTime() < openLinkMaxAgeMs)
  )
    return mirrored;
  let lookup: TRateLimitWindow | null = null;
  if (!mirrored) {
    if (isRecentlyUnknownLink(linkPaymentUuid, now)) return null;
    lookup = await claimUnknownLinkLookup(ip, now);
  }
  return readThroughMirror({
    read: async () => {
      const upstream = await refreshPaymentLink(linkPaymentUuid);
      if (upstream) forgetUnknownLink(linkPaymentUuid);
      else if (!mirrored) rememberUnknownLink(linkPaymentUuid, now);
      if (upstream && lookup) await releaseFoundLinkLookup(ip, lookup);
      return upstream ?? mirrored;
    },
    mirrored,
    // No answer proves nothing unknown, so the lookup is not held against the address.
    unmirrored: async (error) => {
      if (lookup) await releaseFoundLinkLookup(ip, lookup);
      return error;
    },
    warning: { fields: { linkPaymentUuid }, message: "payment link shown from the mirror: the gateway read failed" },
  });
}

export async function getPayPageLink(
  linkPaymentUuid: string,
  options: { ip?: string | null } = {},
): Promise<TPayPageLink | null> {
  const now = new Date();
  let link = await loadLink(linkPaymentUuid, now, options.ip ?? null);
  if (!link) return null;
  // A payer who paid by Pix and comes back: the charge's payment turns the link paid.
  if (stateOf(link, now) === "payable" && link.pixChargeTxid) {
    await syncLinkPixPayment(link).catch((error: unknown) =>
      log.warn({ err: error, linkPaymentUuid }, "link Pix charge read failed"),
    );
    link = (await db.paymentLink.findUnique({ where: { linkPaymentUuid } })) ?? link;
  }
  const cardLock = stateOf(link, now) === "payable" ? await getCardLock(linkPaymentUuid, now) : null;
  return toPayPageLink(link, now, cardLock?.lockedUntil ?? null);
}
