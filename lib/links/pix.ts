import "server-only";
import { randomUUID } from "node:crypto";
import QRCode from "qrcode";
import { recordAudit } from "@/lib/audit/audit-log";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { publishChange } from "@/lib/events/bus";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { cancelPixCharge, createPixCharge, getPixChargeView } from "@/lib/pix/charges";
import type { MirrorClient } from "@/lib/pix/mirror";
import type { PixChargeView } from "@/lib/pix/types";
import { isValidCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import type { ChangeContext } from "@/lib/users/users";
import { lockPaymentLink } from "./mirror";
import { paymentLinkStatusCodes } from "./types";

// Pix on a payment link. Upstream has no call that attaches a Pix charge to a link (spec 4.3 only
// confirms a link with card data), so the hosted page issues an ordinary immediate charge for the
// link's amount, remembers its txid on the mirror (`pixChargeTxid`), and when that charge is paid
// records the link as paid by Pix in the mirror only: upstream keeps the link CREATED (later
// EXPIRED), and the mirror never moves a PAID link back (lib/links/mirror.ts), so the app treats it
// as paid and the hosted page refuses any further payment. See docs/pay-page.md.

const pixChargeMaxSeconds = 3600;
const pixChargeMinSeconds = 60;
// Generous: the charge is created upstream while the link's lock is held.
const issueTransactionTimeoutMs = 30_000;

export type TLinkPixCharge = {
  status: "waiting" | "paid" | "expired";
  pixCopyAndPaste: string | null;
  qrCodeDataUrl: string | null;
  expiresAt: string;
};

const isPaidCharge = (charge: PixChargeView) => charge.payment !== null;

// The hosted page tags the Pix charges it issues, so whoever reads a charge (the webhook
// receiver, reconciliation, staff) can find its link.
const linkChargeReferencePrefix = "payment-link:";

export function isPaymentLinkCharge(userReference: string | null | undefined): boolean {
  return userReference?.startsWith(linkChargeReferencePrefix) ?? false;
}

async function toLinkPixCharge(charge: PixChargeView): Promise<TLinkPixCharge> {
  const isWaiting = charge.isPayable && charge.pixCopyAndPaste !== null;
  return {
    status: isPaidCharge(charge) ? "paid" : isWaiting ? "waiting" : "expired",
    pixCopyAndPaste: isWaiting ? charge.pixCopyAndPaste : null,
    // The QR image is exactly the copy-and-paste code, drawn here as on the staff charge page.
    qrCodeDataUrl:
      isWaiting && charge.pixCopyAndPaste
        ? await QRCode.toDataURL(charge.pixCopyAndPaste, { errorCorrectionLevel: "M", margin: 2, width: 480 })
        : null,
    expiresAt: charge.expiresAt,
  };
}

/**
 * Marks the link whose hosted page issued `txid` as paid by Pix: method 2 "PIX", receipt = txid,
 * transaction id = the Pix endToEndId. Idempotent; a cancelled link is left alone (and logged).
 * The webhook apply path may call it in its transaction for `pix_charge.paid`.
 */
export async function recordLinkPaidByPix(
  payment: { txid: string; endToEndId: string; paidAt: Date | null },
  options: { client?: MirrorClient } = {},
): Promise<PaymentLink | null> {
  const write = async (tx: MirrorClient) => {
    const found = await tx.paymentLink.findUnique({
      where: { pixChargeTxid: payment.txid },
      select: { linkPaymentUuid: true },
    });
    if (!found) return null;
    await lockPaymentLink(tx, found.linkPaymentUuid);
    const link = await tx.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid: found.linkPaymentUuid } });
    if (link.statusCode === paymentLinkStatusCodes.PAID) return link;
    if (link.statusCode === paymentLinkStatusCodes.CANCELLED) {
      log.warn(
        { linkPaymentUuid: link.linkPaymentUuid, txid: payment.txid },
        "a cancelled payment link's Pix charge was paid",
      );
      return link;
    }
    const paid = await tx.paymentLink.update({
      where: { linkPaymentUuid: link.linkPaymentUuid },
      data: {
        statusCode: paymentLinkStatusCodes.PAID,
        statusDescription: "PAID",
        paidMethodCode: paymentLinkMethodCodes.PIX,
        paidMethodDescription: "PIX",
        paymentReceipt: payment.txid,
        transactionId: payment.endToEndId,
        paidAt: payment.paidAt ?? new Date(),
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
  return options.client ? write(options.client) : db.$transaction(write);
}

/** For every path that learns a charge was paid from upstream (webhook, reconciliation). */
export async function recordLinkPaymentFromCharge(
  charge: TPixCharge,
  options: { client?: MirrorClient } = {},
): Promise<void> {
  if (!charge.pix || !isPaymentLinkCharge(charge.userReference)) return;
  await recordLinkPaidByPix(
    { txid: charge.txid, endToEndId: charge.pix.endToEndId, paidAt: new Date(charge.pix.creationDate) },
    options,
  );
}

async function recordIfPaid(charge: PixChargeView): Promise<boolean> {
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

/**
 * The link's Pix charge for the hosted page: the one already issued while it is still ACTIVE, else
 * a new immediate charge for the link's amount (one at a time: the link's lock is held meanwhile).
 */
export async function getOrCreateLinkPixCharge(
  linkPaymentUuid: string,
  context: ChangeContext,
): Promise<TLinkPixCharge> {
  return db.$transaction(
    async (tx) => {
      await lockPaymentLink(tx, linkPaymentUuid);
      const link = await tx.paymentLink.findUnique({ where: { linkPaymentUuid } });
      if (!link) throw new AppError("NOT_FOUND", "Payment link not found.");
      if (link.statusCode !== paymentLinkStatusCodes.CREATED || link.expiresAt.getTime() <= Date.now()) {
        throw new AppError("CONFLICT", "This payment link can no longer be paid.");
      }
      if (!link.acceptedMethodCodes.includes(paymentLinkMethodCodes.PIX))
        throw new AppError("FORBIDDEN", "This payment link does not accept Pix.");
      if (link.pixChargeTxid) {
        const current = await getPixChargeView(link.pixChargeTxid);
        if (current && (current.isPayable || isPaidCharge(current))) return toLinkPixCharge(current);
      }
      const { txid } = await createPixCharge(
        {
          idempotencyKey: randomUUID(),
          amountCents: link.amountCents,
          expirationSeconds: pixExpirationSeconds(link, new Date()),
          debtor: debtorOf(link),
          description: link.description?.slice(0, 140) || undefined,
          // Lets anyone reading the charge (staff, reconciliation) find its link.
          userReference: `${linkChargeReferencePrefix}${linkPaymentUuid}`,
        },
        context,
      );
      await tx.paymentLink.update({ where: { linkPaymentUuid }, data: { pixChargeTxid: txid } });
      const created = await getPixChargeView(txid);
      if (!created) throw new AppError("INTERNAL", "The Pix charge was created but cannot be read.");
      return toLinkPixCharge(created);
    },
    { timeout: issueTransactionTimeoutMs, maxWait: issueTransactionTimeoutMs },
  );
}

/**
 * Reads the link's Pix charge (upstream while it can still be paid) and records the link as paid
 * when the charge is. The hosted page polls this while the payer has the QR in front of them.
 */
export async function syncLinkPixPayment(link: Pick<PaymentLink, "pixChargeTxid">): Promise<TLinkPixCharge | null> {
  if (!link.pixChargeTxid) return null;
  const charge = await getPixChargeView(link.pixChargeTxid);
  if (!charge) return null;
  await recordIfPaid(charge);
  return toLinkPixCharge(charge);
}

/**
 * Before a card payment: a Pix charge still open for the link is cancelled upstream first, so the
 * payer cannot pay twice. Returns true when that charge turns out to be paid already (the link
 * is then recorded as paid by Pix and the card must not be charged).
 */
export async function closeLinkPixChargeBeforeCard(
  link: Pick<PaymentLink, "pixChargeTxid">,
  context: ChangeContext,
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
