import "server-only";
import type { TPixCharge, TPixChargeListItem } from "@/lib/gateway/schemas/pix-charge";
import type { TPixRefund } from "@/lib/gateway/schemas/pix-refund";
import type { Prisma } from "@/lib/generated/prisma/client";
import { onlyDigits } from "@/lib/shared/cpf-cnpj";
import { amountToCents } from "@/lib/shared/money";

export function isFullCharge(charge: TPixCharge | TPixChargeListItem): charge is TPixCharge {
  return "devolutionAllowed" in charge;
}

// What a list item carries; a list item never erases what only a full read has (QR text, payment).
function listItemFields(item: TPixChargeListItem) {
  const document = (value: string | null | undefined) => (value ? onlyDigits(value) : null);
  return {
    amountCents: amountToCents(item.amount),
    status: item.status,
    creationDate: new Date(item.calendar.creationDate),
    expirationSeconds: item.calendar.expiration,
    expiresAt: new Date(item.calendar.expirationDate),
    debtorName: item.debtor?.name ?? null,
    debtorCpf: document(item.debtor?.naturalPersonIdentification),
    debtorCnpj: document(item.debtor?.legalPersonIdentification),
    description: item.description,
    userReference: item.userReference,
  };
}

export function chargeFields(charge: TPixCharge | TPixChargeListItem) {
  return isFullCharge(charge) ? fullChargeFields(charge) : listItemFields(charge);
}

export function fullChargeFields(charge: TPixCharge) {
  return {
    ...listItemFields(charge),
    pixCopyAndPaste: charge.pixCopyAndPaste,
    paidAt: charge.pix ? new Date(charge.pix.creationDate) : null,
    payerName: charge.pix?.payerName ?? null,
    payerDocument: charge.pix ? onlyDigits(charge.pix.payerDocumentNumber) : null,
    endToEndId: charge.pix?.endToEndId ?? null,
    paidAmountCents: charge.pix ? amountToCents(charge.pix.amount) : null,
    devolutionAllowed: charge.devolutionAllowed,
  };
}

// The QR PNG is rendered again from pixCopyAndPaste, so it is not kept; refunds live in their own rows.
export function rawOf(
  charge: TPixCharge | TPixChargeListItem,
  previous: Prisma.JsonValue | undefined,
): Prisma.InputJsonObject {
  const { qrCodeBase64: _qr, devolutions: _devolutions, ...rest } = charge as Partial<TPixCharge> & TPixChargeListItem;
  const base =
    !isFullCharge(charge) && previous && typeof previous === "object" && !Array.isArray(previous) ? previous : {};
  return { ...base, ...rest } as Prisma.InputJsonObject;
}

export function refundFields(refund: TPixRefund) {
  return {
    txid: refund.pixChargeTxid,
    amountCents: amountToCents(refund.amount),
    statusCode: refund.status.code,
    statusDescription: refund.status.description,
    statusReason: refund.statusReason,
    description: refund.description,
    refundEndToEnd: refund.refundEndToEnd,
    creationDate: new Date(refund.creationDate),
    settlementDate: refund.settlementDate ? new Date(refund.settlementDate) : null,
    raw: refund as unknown as Prisma.InputJsonObject,
  };
}
