import { describe, expect, it } from "vitest";
import { ZPaymentCancellation } from "./payment";
import { isKnownPixChargeStatus, ZCreatePixChargeRequest, ZPixCharge, ZPixChargeListItem } from "./pix-charge";
import { ZPixRefund } from "./pix-refund";
import { ZWebhookDelivery } from "./webhook";

const listItem = {
  txid: "abc123",
  calendar: {
    creationDate: "2026-11-21T10:15:30.123-03:00",
    expiration: 3600,
    expirationDate: "2026-11-21T11:15:30.123-03:00",
  },
  debtor: null,
  amount: 25.9,
  status: "ACTIVE",
  description: null,
  userReference: "order-1",
};
const refund = {
  pixRefundId: "9b1c",
  pixChargeId: 7,
  tenantId: "5f0e",
  partnerBankId: 1,
  amount: 5,
  status: { code: 3, description: "RETURNED" },
  statusReason: null,
  pixChargeTxid: "abc123",
  refundEndToEnd: "D123",
  sendWebhookInt: 0,
  pixEndToEnd: "E123",
  creationDate: "2026-11-21T10:20:00-03:00",
  updatedAt: "2026-11-21T10:20:00-03:00",
  refundTypeCode: 1,
  numberRetries: 0,
  settlementDate: "2026-11-21T10:20:00-03:00",
  description: "devolução",
};
const paidCharge = {
  ...listItem,
  status: "PARTIALLY REFUNDED",
  pixCopyAndPaste: "000201...",
  qrCodeBase64: null,
  pix: {
    endToEndId: "E123",
    amount: "25.90",
    creationDate: "2026-11-21T10:16:00-03:00",
    payerName: "Beltrana",
    payerDocumentNumber: "52998224725",
  },
  devolutionAllowed: true,
  devolutions: [refund],
};

describe("Pix wire schemas", () => {
  it("parse a list item and a full charge, keeping amounts in the spec's units", () => {
    expect(ZPixChargeListItem.parse(listItem)).toEqual(listItem);
    const charge = ZPixCharge.parse(paidCharge);
    expect(charge.pix?.amount).toBe("25.90");
    expect(charge.devolutions?.[0]?.amount).toBe(5);
  });

  it("accept an unknown status without crashing and know the spec's exact ones", () => {
    expect(ZPixCharge.parse({ ...paidCharge, status: "SOMETHING NEW" }).status).toBe("SOMETHING NEW");
    expect(isKnownPixChargeStatus("Cancelada")).toBe(true);
    expect(isKnownPixChargeStatus("CANCELADA")).toBe(false);
  });

  it("normalize absent optional fields to null and reject a missing identifier", () => {
    const { description: _description, userReference: _userReference, devolutions: _devolutions, ...rest } = paidCharge;
    expect(ZPixCharge.parse(rest)).toMatchObject({ description: null, userReference: null, devolutions: null });
    const { txid: _txid, ...withoutTxid } = listItem;
    expect(ZPixChargeListItem.safeParse(withoutTxid).success).toBe(false);
    expect(ZPixRefund.parse({ ...refund, refundTypeCode: undefined, numberRetries: undefined }).pixRefundId).toBe(
      "9b1c",
    );
  });

  it("validate the create body: exact cents, one valid document", () => {
    expect(ZCreatePixChargeRequest.safeParse({ amount: 10.005 }).success).toBe(false);
    expect(
      ZCreatePixChargeRequest.safeParse({
        amount: 10,
        debtor: { name: "A", naturalPersonIdentification: "52998224724" },
      }).success,
    ).toBe(false);
    expect(
      ZCreatePixChargeRequest.safeParse({
        amount: 10,
        debtor: { name: "A", naturalPersonIdentification: "52998224725" },
      }).success,
    ).toBe(true);
  });

  it("parse webhook deliveries by event", () => {
    const delivery = ZWebhookDelivery.parse({
      event: "pix_refund.returned",
      occurredAt: "2026-11-21T10:20:00-03:00",
      data: refund,
    });
    expect(delivery.event === "pix_refund.returned" && delivery.data.pixRefundId).toBe("9b1c");
  });
});

describe("card schemas", () => {
  it("keep the cancellation amount as cents in a string (2.4)", () => {
    const parsed = ZPaymentCancellation.safeParse({
      codigo: "0",
      mensagem: "Cancelamento efetuado",
      status: "CAN",
      valor: "12345",
    });
    expect(parsed.success && parsed.data.valor).toBe("12345");
    expect(ZPaymentCancellation.safeParse({ codigo: "0", mensagem: "x", status: "CAN", valor: "123.45" }).success).toBe(
      false,
    );
  });
});
