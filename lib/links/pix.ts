import "server-only";
import QRCode from "qrcode";
import type { TChangeContext } from "@/lib/audit/audit-log";
import { recordAudit } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { publishChange } from "@/lib/events/bus";
import { paymentLinkMethodCodes } from "@/lib/gateway/schemas/payment-link";
import type { TPixCharge } from "@/lib/gateway/schemas/pix-charge";
import type { PaymentLink } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { cancelPixCharge, createPixCharge, getPixChargeView } from "@/lib/pix/charges";
import type { TMirrorClient } from "@/lib/pix/mirror";
import type { TPixChargeView } from "@/lib/pix/types";
import { isValidCpfOrCnpj } from "@/lib/shared/cpf-cnpj";
import { lockPaymentLink } from "./mirror";
import { paymentLinkStatusCodes } from "./types";

// Pix on a payment link: upstream cannot attach a Pix charge to a link (4.3 confirms with card data only), so the
// page issues an ordinary charge and a paid one marks the link paid in the mirror only (docs/pay-page.md).

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
export async function recordLinkPaidByPix(
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
  return options.client ? write(options.client) : inTransaction(write);
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

function checkPayableByPix(link: PaymentLink | null): PaymentLink {
  if (!link) throw new AppError("NOT_FOUND", "Payment link not found.");
  if (link.statusCode !== paymentLinkStatusCodes.CREATED || link.expiresAt.getTime() <= Date.now()) {
    throw new AppError("CONFLICT", "This payment link can no longer be paid.");
  }
  if (!link.acceptedMethodCodes.includes(paymentLinkMethodCodes.PIX))
    throw new AppError("FORBIDDEN", "This payment link does not accept Pix.");
  return link;
}

// No transaction is held across the upstream call: the idempotency key is derived from the link and the charge
// it replaces, so payers asking at the same time share one charge.
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
  await inTransaction(async (tx) => {
    await lockPaymentLink(tx, linkPaymentUuid);
    const current = checkPayableByPix(await tx.paymentLink.findUnique({ where: { linkPaymentUuid } }));
    if (current.pixChargeTxid === replacedTxid)
      await tx.paymentLink.update({ where: { linkPaymentUuid }, data: { pixChargeTxid: txid } });
  });
  const created = await getPixChargeView(txid);
  if (!created) throw new AppError("INTERNAL", "The Pix charge was created but cannot be read.");
  return toLinkPixCharge(created);
}

export async function syncLinkPixPayment(link: Pick<PaymentLink, "pixChargeTxid">): Promise<TLinkPixCharge | null> {
  if (!link.pixChargeTxid) return null;
  const charge = await getPixChargeView(link.pixChargeTxid);
  if (!charge) return null;
  await recordIfPaid(charge);
  return toLinkPixCharge(charge);
}

// Cancels an open Pix charge before a card payment so the payer cannot pay twice; true when it was paid already.
export async function closeLinkPixChargeBeforeCard(
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
