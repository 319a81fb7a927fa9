import "server-only";
import QRCode from "qrcode";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { recordAudit } from "@/lib/audit/audit-log";
import { db, inTransaction, withTransaction } from "@/lib/db/client";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError, type TMessageKey } from "@/lib/errors";
import { publishChange } from "@/lib/events/bus";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { cancelPixCharge, createPixCharge, getPixChargeView } from "@/lib/pix/charges";
import { submitPixRefund } from "@/lib/pix/refund-approvals";
import type { TPixChargeView } from "@/lib/pix/types";
import { isValidCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import { lockPaymentLink } from "./mirror";
import type { TRefundLinkPixPayment } from "./schemas";
import { isLinkSettledByPix } from "./settlement";
import { paymentLinkStatusCodes } from "./types";

// Upstream cannot attach Pix to a link (4.3): an ordinary charge whose payment marks the link paid (docs/pay-page.md).

const pixChargeMaxSeconds = 3600;
const pixChargeMinSeconds = 60;

export type TLinkPixCharge = {
  status: "waiting" | "paid" | "expired";
  pixCopyAndPaste: string | null;
  qrCodeDataUrl: string | null;
  expiresAt: string;
};

const isPaidCharge = (charge: TPixChargeView) => charge.payment !== null;

// Tags the page's charges so whoever reads a charge (webhook receiver, reconciliation, staff) can find its link.
const linkChargeReferencePrefix = "payment-link:";

export function isPaymentLinkCharge(userReference: string | null | undefined): boolean {
  return userReference?.startsWith(linkChargeReferencePrefix) ?? false;
}

async function toLinkPixCharge(charge: TPixChargeView): Promise<TLinkPixCharge> {
  const isWaiting = charge.isPayable && charge.pixCopyAndPaste !== null;
  return {
    status: isPaidCharge(charge) ? "paid" : isWaiting ? "waiting" : "expired",
    pixCopyAndPaste: isWaiting ? charge.pixCopyAndPaste : null,
    qrCodeDataUrl:
      isWaiting && charge.pixCopyAndPaste
        ? await QRCode.toDataURL(charge.pixCopyAndPaste, { errorCorrectionLevel: "M", margin: 2, width: 480 })
        : null,
    expiresAt: charge.expiresAt,
  };
}

// Idempotent; a cancelled link is left alone (and logged).
async function recordLinkPaidByPix(
  payment: { txid: string; endToEndId: string; paidAt: Date | null },
  options: { client?: TMirrorClient } = {},
): Promise<PaymentLink | null> {
  const write = async (tx: TMirrorClient) => {
    const found = await tx.paymentLink.findUnique({
      where: { pixChargeTxid: payment.txid },
      select: { linkPaymentUuid: true },
    });
    if (!found) return null;
    await lockPaymentLink(tx, found.linkPaymentUuid);
    const link = await tx.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: found.linkPaymentUuid } });
    if (isLinkSettledByPix(link) || link.statusCode === paymentLinkStatusCodes.PAID) return link;
    if (link.statusCode === paymentLinkStatusCodes.CANCELLED) {
      // Staff see it on the link's page as a payment to refund.
      log.warn(
        { linkPaymentUuid: link.linkPaymentUuid, txid: payment.txid },
        "a cancelled payment link's Pix charge was paid",
      );
      await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
      return link;
    }
    const paidAt = payment.paidAt ?? new Date();
    const paid = await tx.paymentLink.update({
      where: { linkPaymentUuid: link.linkPaymentUuid },
      data: {
        // Kept apart from the mirrored fields below, which an authoritative gateway read may set back to CREATED.
        pixPaidTxid: payment.txid,
        pixPaidEndToEndId: payment.endToEndId,
        pixPaidAt: paidAt,
        statusCode: paymentLinkStatusCodes.PAID,
        statusDescription: "PAID",
        paidMethodCode: paymentLinkMethodCodes.PIX,
        paidMethodDescription: "PIX",
        paymentReceipt: payment.txid,
        transactionId: payment.endToEndId,
        paidAt,
      },
    });
    await recordAudit(
      {
        actor: null,
        action: "payment_link.paid",
        resourceType: "payment_link",
        resourceId: link.linkPaymentUuid,
        metadata: { method: "pix", outcome: "paid", txid: payment.txid, amountCents: link.amountCents },
      },
      tx,
    );
    await publishChange({ kind: "payment_link", id: link.linkPaymentUuid }, tx);
    return paid;
  };
  return withTransaction(options.client, write);
}

export async function recordLinkPaymentFromCharge(
  charge: TPixCharge,
  options: { client?: TMirrorClient } = {},
): Promise<void> {
  if (!charge.pix || !isPaymentLinkCharge(charge.userReference)) return;
  await recordLinkPaidByPix(
    { txid: charge.txid, endToEndId: charge.pix.endToEndId, paidAt: new Date(charge.pix.creationDate) },
    options,
  );
}

async function recordIfPaid(charge: TPixChargeView): Promise<boolean> {
  if (!charge.payment) return false;
  await recordLinkPaidByPix({
    txid: charge.txid,
    endToEndId: charge.payment.endToEndId,
    paidAt: charge.payment.paidAt ? new Date(charge.payment.paidAt) : null,
  });
  return true;
}

function pixExpirationSeconds(link: Pick<PaymentLink, "expiresAt">, now: Date): number {
  const untilLinkExpires = Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000);
  return Math.max(pixChargeMinSeconds, Math.min(pixChargeMaxSeconds, untilLinkExpires));
}

function debtorOf(link: PaymentLink) {
  // A foreign document is not a CPF/CNPJ, and Pix debtors must be one: the charge goes without a debtor.
  if (link.isForeignPayer || !isValidCpfOrCnpj(link.payerDocument)) return undefined;
  return { name: link.payerName.slice(0, 100), document: link.payerDocument };
}

export const cardPaymentInProgressKey = "links.errors.cardPaymentInProgress" satisfies TMessageKey;

const isCardClaimed = (link: Pick<PaymentLink, "cardClaimUntil">, now: Date) =>
  link.cardClaimUntil !== null && link.cardClaimUntil.getTime() > now.getTime();

function checkPayableByPix(link: PaymentLink | null): PaymentLink {
  if (!link) throw new AppError("NOT_FOUND", "links.errors.linkNotFound");
  if (
    isLinkSettledByPix(link) ||
    link.statusCode !== paymentLinkStatusCodes.CREATED ||
    link.expiresAt.getTime() <= Date.now()
  ) {
    throw new AppError("CONFLICT", "links.errors.notPayable");
  }
  if (!link.acceptedMethodCodes.includes(paymentLinkMethodCodes.PIX))
    throw new AppError("FORBIDDEN", "links.errors.pixNotAccepted");
  if (isCardClaimed(link, new Date())) throw new AppError("CONFLICT", cardPaymentInProgressKey);
  return link;
}

// Outlives any gateway call (connect + response timeouts); a process dying mid-payment frees the link on expiry.
const cardClaimMs = 2 * 60_000;

export type TCardClaim =
  | { status: "claimed"; until: Date; link: PaymentLink }
  | { status: "busy" }
  | { status: "notPayable" };

// Under the link's lock, like the Pix charge's write: whichever comes second sees the other.
export async function claimLinkForCard(linkPaymentUuid: string, now = new Date()): Promise<TCardClaim> {
  return inTransaction(async (tx) => {
    await lockPaymentLink(tx, linkPaymentUuid);
    const link = await tx.paymentLink.findUnique({ where: { linkPaymentUuid } });
    // Server-side, whatever the page showed: a link paid by Pix is never charged again by card.
    if (!link || link.statusCode !== paymentLinkStatusCodes.CREATED || isLinkSettledByPix(link))
      return { status: "notPayable" };
    if (isCardClaimed(link, now)) return { status: "busy" };
    const until = new Date(now.getTime() + cardClaimMs);
    const claimed = await tx.paymentLink.update({ where: { linkPaymentUuid }, data: { cardClaimUntil: until } });
    return { status: "claimed", until, link: claimed };
  });
}

export async function releaseCardClaim(linkPaymentUuid: string, until: Date): Promise<void> {
  await db.paymentLink.updateMany({
    where: { linkPaymentUuid, cardClaimUntil: until },
    data: { cardClaimUntil: null },
  });
}

// No transaction across the upstream call: the key derives from the link and replaced charge, so payers share one charge.
export async function getOrCreateLinkPixCharge(
  linkPaymentUuid: string,
  context: TChangeContext,
): Promise<TLinkPixCharge> {
  const link = checkPayableByPix(await db.paymentLink.findUnique({ where: { linkPaymentUuid } }));
  const replacedTxid = link.pixChargeTxid;
  if (replacedTxid) {
    const current = await getPixChargeView(replacedTxid);
    if (current && (current.isPayable || isPaidCharge(current))) return toLinkPixCharge(current);
  }
  const { txid } = await createPixCharge(
    {
      idempotencyKey: `${linkChargeReferencePrefix}${linkPaymentUuid}:${replacedTxid ?? "first"}`,
      amountCents: link.amountCents,
      expirationSeconds: pixExpirationSeconds(link, new Date()),
      debtor: debtorOf(link),
      description: link.description?.slice(0, 140) || undefined,
      userReference: `${linkChargeReferencePrefix}${linkPaymentUuid}`,
    },
    context,
    // The expiration moves with the clock: the key stands for "the link's charge after replacedTxid".
    { request: { linkPaymentUuid, replacedTxid } },
  );
  const refusal = await inTransaction(async (tx) => {
    await lockPaymentLink(tx, linkPaymentUuid);
    const current = await tx.paymentLink.findUnique({ where: { linkPaymentUuid } });
    // Recorded even when refused below: the next charge's idempotency key follows from it.
    if (current?.statusCode === paymentLinkStatusCodes.CREATED && current.pixChargeTxid === replacedTxid)
      await tx.paymentLink.update({ where: { linkPaymentUuid }, data: { pixChargeTxid: txid } });
    try {
      checkPayableByPix(current);
      return null;
    } catch (error) {
      return error;
    }
  });
  if (refusal) {
    // A card payment (or a cancel) came first: the charge was never shown, and must not stay payable.
    await cancelPixCharge(txid, context).catch((error: unknown) =>
      log.warn({ err: error, linkPaymentUuid, txid }, "a Pix charge issued for a link taken meanwhile stays open"),
    );
    throw refusal;
  }
  const created = await getPixChargeView(txid);
  if (!created) throw new AppError("INTERNAL", "links.errors.pixChargeUnreadable");
  return toLinkPixCharge(created);
}

export async function syncLinkPixPayment(link: Pick<PaymentLink, "pixChargeTxid">): Promise<TLinkPixCharge | null> {
  if (!link.pixChargeTxid) return null;
  const charge = await getPixChargeView(link.pixChargeTxid);
  if (!charge) return null;
  await recordIfPaid(charge);
  return toLinkPixCharge(charge);
}

export type TLinkPixRefundDue = { txid: string; amountCents: number };

// A Pix paid after the link was cancelled (upstream has no tie): the payer is owed it back via the link's page.
export async function getLinkPixRefundDue(
  link: Pick<PaymentLink, "statusCode" | "pixChargeTxid">,
): Promise<TLinkPixRefundDue | null> {
  if (link.statusCode !== paymentLinkStatusCodes.CANCELLED || !link.pixChargeTxid) return null;
  const charge = await getPixChargeView(link.pixChargeTxid);
  if (!charge?.payment || !charge.canRefund || charge.remainingRefundableCents <= 0) return null;
  return { txid: charge.txid, amountCents: charge.remainingRefundableCents };
}

// Through the Pix refund itself (its idempotency key, its lock, its checks); a retried submit gets the first result.
export async function refundCancelledLinkPixPayment(
  input: TRefundLinkPixPayment,
  context: TChangeContext,
): Promise<{ pixRefundId: string }> {
  const { linkPaymentUuid, idempotencyKey, amountCents } = input;
  const link = await db.paymentLink.findUnique({ where: { linkPaymentUuid } });
  if (!link) throw new AppError("NOT_FOUND", "links.errors.linkNotFound");
  if (link.statusCode !== paymentLinkStatusCodes.CANCELLED || !link.pixChargeTxid)
    throw new AppError("CONFLICT", "links.errors.nothingToRefund");
  const due = await getLinkPixRefundDue(link);
  if (due && due.amountCents !== amountCents) throw new AppError("CONFLICT", "links.errors.refundAmountChanged");
  // The refund form's entry, so the money policy holds this refund like any other.
  const result = await submitPixRefund(
    { idempotencyKey, txid: link.pixChargeTxid, amountCents, description: "Link de pagamento cancelado" },
    context,
  );
  if (result.status === "pending") throw new AppError("CONFLICT", "links.errors.refundHeldForApproval");
  return { pixRefundId: result.pixRefundId };
}

// Cancels the link's open Pix charge so the payer cannot pay twice or pay a cancelled link; true if already paid.
export async function closeLinkPixCharge(
  link: Pick<PaymentLink, "pixChargeTxid">,
  context: TChangeContext,
): Promise<boolean> {
  if (!link.pixChargeTxid) return false;
  const charge = await getPixChargeView(link.pixChargeTxid, { refresh: true });
  if (!charge) return false;
  if (await recordIfPaid(charge)) return true;
  if (!charge.canCancel) return false;
  try {
    await cancelPixCharge(charge.txid, context);
    return false;
  } catch (error) {
    // Upstream refused the cancel: most likely it was paid a moment ago.
    const again = await getPixChargeView(charge.txid, { refresh: true });
    if (again && (await recordIfPaid(again))) return true;
    throw error;
  }
}
