import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import * as gateway from "@/lib/gateway/payments";
import type { TCardPaymentRequest } from "@/lib/gateway/schemas/payment";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { findMirroredCardPayment, upsertCardPaymentFromGateway } from "./mirror";

describe("the card payment mirror against the sandbox", () => {
  let sandbox: TSandbox;

  const pay = (overrides: Partial<TCardPaymentRequest> = {}) =>
    gateway.createPayment({
      identificacaoPagamento: randomUUID(),
      numeroParcelas: 1,
      tipoParcelamento: "3",
      bandeiraCartao: "1",
      valor: 100,
      numeroCartao: "4111111111111111",
      dataExpiracao: "12/30",
      ...overrides,
    });

  const terminal = { origin: "TERMINAL" as const, cardBin: "411111", cardLastFour: "1111" };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.cardPayment.deleteMany();
  });

  it("creates a payment in cents, odd cents included, with installments adding up to the total", async () => {
    const single = await pay({ valor: 10.01 });
    const { outcome, payment } = await upsertCardPaymentFromGateway(single, terminal);
    expect(outcome).toBe("created");
    expect(payment).toMatchObject({
      id: single.id,
      orderId: single.identificadorPagamento,
      status: "CON",
      isApproved: true,
      amountCents: 1001,
      cancelledCents: 0,
      brandCode: "1",
      paymentType: "C",
      origin: "TERMINAL",
      cardBin: "411111",
      cardLastFour: "1111",
      installmentCount: 1,
    });
    expect(payment.installments.map((installment) => installment.amountCents)).toEqual([1001]);

    const split = await pay({ valor: 123.45, numeroParcelas: 4, tipoParcelamento: "4" });
    const { payment: parcelado } = await upsertCardPaymentFromGateway(split, terminal);
    expect(parcelado.amountCents).toBe(12345);
    expect(parcelado.installmentCount).toBe(4);
    const parts = parcelado.installments.map((installment) => installment.amountCents);
    expect(parts).toEqual([3087, 3086, 3086, 3086]);
    expect(parts.reduce((sum, cents) => sum + cents, 0)).toBe(12345);
    expect(parcelado.installments.map((installment) => installment.number)).toEqual([1, 2, 3, 4]);
    for (const installment of parcelado.installments) expect(installment.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("turns cancelled on a later CAN read, with the whole amount cancelled, and refuses a stale CON after it", async () => {
    const created = await pay({ valor: 123.45 });
    await upsertCardPaymentFromGateway(created, terminal);
    await gateway.cancelPayment(created.id);
    const cancelledRead = await gateway.getPayment(created.id);
    expect(cancelledRead.status).toBe("CAN");

    const cancelled = await upsertCardPaymentFromGateway(cancelledRead, { origin: "GATEWAY" });
    expect(cancelled.outcome).toBe("updated");
    expect(cancelled.payment).toMatchObject({ status: "CAN", amountCents: 12345, cancelledCents: 12345 });

    // The create answer arriving late (a retried request, an old list page) must not bring it back.
    const stale = await upsertCardPaymentFromGateway(created, terminal);
    expect(stale.outcome).toBe("stale");
    expect(await findMirroredCardPayment(created.id)).toMatchObject({ status: "CAN", cancelledCents: 12345 });
  });

  it("keeps a terminal payment's origin, BIN and last four when the gateway's list writes it again", async () => {
    const created = await pay({ valor: 50 });
    await upsertCardPaymentFromGateway(created, terminal);
    const listed = (await gateway.listPayments({ size: 100, sort: "dataAutorizacao,desc" })).content.find(
      (item) => item.id === created.id,
    );
    expect(listed).toBeDefined();
    const { outcome, payment } = await upsertCardPaymentFromGateway(listed!, { origin: "GATEWAY" });
    expect(outcome).toBe("unchanged");
    expect(payment).toMatchObject({ origin: "TERMINAL", cardBin: "411111", cardLastFour: "1111" });

    // And the other way round: a payment first seen in the list learns its card from the app's own answer.
    const elsewhere = await pay({ valor: 75.5 });
    await upsertCardPaymentFromGateway(elsewhere, { origin: "GATEWAY" });
    expect(await findMirroredCardPayment(elsewhere.id)).toMatchObject({ origin: "GATEWAY", cardLastFour: null });
    const { payment: learned } = await upsertCardPaymentFromGateway(elsewhere, terminal);
    expect(learned).toMatchObject({ origin: "TERMINAL", cardBin: "411111", cardLastFour: "1111", amountCents: 7550 });
  });
});
