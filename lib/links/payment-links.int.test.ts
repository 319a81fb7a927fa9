import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { GatewayHttpError } from "@/lib/gateway/errors";
import { confirmPaymentLink, getPaymentLink, verifyPaymentLink } from "@/lib/gateway/payment-links";
import type { TCardPaymentRequest } from "@/lib/gateway/schemas/payment";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import type { TSandbox } from "@/sandbox/test/harness";
import { upsertPaymentLinkFromGateway } from "./mirror";
import {
  cancelPaymentLink,
  createPaymentLink,
  defaultLinkPeriod,
  findPaymentLinks,
  getPaymentLinkView,
  refreshPaymentLinksFromGateway,
} from "./payment-links";
import { ZCreatePaymentLinkInput, ZPaymentLinkFilters } from "./schemas";

const approvedCard = "4111111111111111";
const refusedCard = "4000000000000002";

function cardPayment(valor: number, numeroCartao: string, numeroParcelas = 1): TCardPaymentRequest {
  return {
    identificacaoPagamento: randomUUID(),
    numeroParcelas,
    tipoParcelamento: numeroParcelas === 1 ? "3" : "4",
    bandeiraCartao: "1",
    valor,
    numeroCartao,
    dataExpiracao: "12/30",
    codigoSeguranca: "123",
  };
}

async function upstreamStatus(error: unknown): Promise<number | undefined> {
  return error instanceof GatewayHttpError ? error.status : undefined;
}

describe("payment links against the sandbox", () => {
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string }; ip: string; userAgent: string };

  const newLink = (overrides: Record<string, unknown> = {}) =>
    ZCreatePaymentLinkInput.parse({
      idempotencyKey: randomUUID(),
      payerName: "Fulano de Tal",
      payerDocument: "529.982.247-25",
      amountCents: 10_000,
      installments: 3,
      acceptedMethodCodes: [1, 2],
      expirationDays: 7,
      ...overrides,
    });

  const upstreamLinkCount = async () => {
    const period = defaultLinkPeriod();
    const answer = await sandbox.request(
      "merchant",
      "GET",
      `/api/v1/link-payment?startDate=${period.from}T00:00:00&endDate=${period.to}T23:59:59`,
    );
    return (answer.body as unknown[]).length;
  };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  beforeEach(async () => {
    await db.idempotencyKey.deleteMany();
    await db.paymentLink.deleteMany();
    await db.auditLog.deleteMany();
    await db.user.deleteMany();
    const user = await db.user.create({ data: { email: "staff@example.com", name: "Staff", passwordHash: "x" } });
    context = { actor: { id: user.id, email: user.email }, ip: "203.0.113.9", userAgent: "vitest" };
  });

  it("creates a link upstream, mirrors every field it shows, and records who did it", async () => {
    const input = newLink({ description: "Pedido 42", userReference: "order-42", expirationDays: 3 });
    const { linkPaymentUuid } = await createPaymentLink(input, context);

    const view = await getPaymentLinkView(linkPaymentUuid);
    expect(view).toMatchObject({
      linkPaymentUuid,
      statusCode: 1,
      statusDescription: "CREATED",
      amountCents: 10_000,
      payer: { name: "Fulano de Tal", document: "52998224725", isForeign: false },
      installments: 3,
      installmentOptions: [
        { installments: 1, amountCents: 10_000 },
        { installments: 2, amountCents: 5_000 },
        { installments: 3, amountCents: 3_334 },
      ],
      acceptedMethodCodes: [1, 2],
      description: "Pedido 42",
      userReference: "order-42",
      expirationDays: 3,
      payment: null,
      canCancel: true,
    });
    expect(view!.verificationCode).toMatch(/^\d{6}$/);
    expect(view!.paymentUrl).toMatch(new RegExp(`/pay/${linkPaymentUuid}$`));
    expect(Date.parse(view!.expiresAt) - Date.parse(view!.createdAt)).toBe(3 * 24 * 3600 * 1000);
    expect(await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).toMatchObject({
      createdById: context.actor.id,
    });
    const entry = await db.auditLog.findFirstOrThrow({ where: { action: "payment_link.created" } });
    expect(entry).toMatchObject({
      actorId: context.actor.id,
      resourceType: "payment_link",
      resourceId: linkPaymentUuid,
      ip: "203.0.113.9",
    });
    expect(JSON.stringify(entry.metadata)).not.toContain(view!.verificationCode);
  });

  it("creates one upstream link for two concurrent submits of the same form", async () => {
    const input = newLink();
    const before = await upstreamLinkCount();
    const [first, second] = await Promise.all([createPaymentLink(input, context), createPaymentLink(input, context)]);
    expect(second.linkPaymentUuid).toBe(first.linkPaymentUuid);
    expect(await createPaymentLink(input, context)).toEqual(first);
    expect(await upstreamLinkCount()).toBe(before + 1);
  });

  it("recovers a key left pending by a process that died after creating the link upstream", async () => {
    const input = newLink({ amountCents: 4321, userReference: "crash-1" });
    const first = await createPaymentLink(input, context);
    const before = await upstreamLinkCount();
    await db.paymentLink.delete({ where: { linkPaymentUuid: first.linkPaymentUuid } });
    await db.idempotencyKey.update({
      where: { scope_key: { scope: "payment_link", key: input.idempotencyKey } },
      data: { status: "PENDING", resultId: null, lockedUntil: new Date(Date.now() - 1000) },
    });
    expect(await createPaymentLink(input, context)).toEqual(first);
    expect(await upstreamLinkCount()).toBe(before);
    expect(await db.paymentLink.findUnique({ where: { linkPaymentUuid: first.linkPaymentUuid } })).not.toBeNull();
  });

  it("checks CPF/CNPJ digits unless the payer is foreign", () => {
    const bad = ZCreatePaymentLinkInput.safeParse({ ...newLink(), payerDocument: "123.456.789-00" });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["payerDocument", "invalidDocument"],
    ]);
    expect(newLink({ isForeignPayer: true, payerDocument: "X1234567 (PT)" }).payerDocument).toBe("X1234567 (PT)");
    expect(
      ZCreatePaymentLinkInput.safeParse({ ...newLink(), acceptedMethodCodes: [2], installments: 2 }).error!.issues[0]!
        .message,
    ).toBe("installmentsNeedCard");
    expect(ZCreatePaymentLinkInput.safeParse({ ...newLink(), acceptedMethodCodes: [] }).error!.issues[0]!.message).toBe(
      "methodsRequired",
    );
  });

  it("keeps a foreign document as typed", async () => {
    const { linkPaymentUuid } = await createPaymentLink(
      newLink({ isForeignPayer: true, payerDocument: "AB123456", acceptedMethodCodes: [1] }),
      context,
    );
    expect((await getPaymentLinkView(linkPaymentUuid))!.payer).toEqual({
      name: "Fulano de Tal",
      document: "AB123456",
      isForeign: true,
    });
  });

  it("verifies the right code upstream and refuses a wrong one", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    const { verificationCode } = (await getPaymentLinkView(linkPaymentUuid))!;
    expect((await verifyPaymentLink(linkPaymentUuid, verificationCode)).linkPaymentUuid).toBe(linkPaymentUuid);
    const wrong = String(((Number(verificationCode) - 100000 + 1) % 900000) + 100000);
    expect(await verifyPaymentLink(linkPaymentUuid, wrong).then(() => 200, upstreamStatus)).toBe(400);
  });

  it("confirms with a refused card (the link stays open), then an approved one; a second confirm is a 409", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    const refusal = await confirmPaymentLink(linkPaymentUuid, cardPayment(100, refusedCard, 3)).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(GatewayHttpError);
    expect((refusal as GatewayHttpError).status).toBe(422);
    expect((refusal as GatewayHttpError).body).toMatchObject({ codigo: "05", merchantAdviceCode: "03" });
    expect((await getPaymentLinkView(linkPaymentUuid, { refresh: true }))!.statusCode).toBe(1);

    const paid = await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard, 3));
    await upsertPaymentLinkFromGateway(paid);
    const view = await getPaymentLinkView(linkPaymentUuid);
    expect(view).toMatchObject({
      statusCode: 3,
      canCancel: false,
      payment: { methodCode: 1, methodDescription: "CREDIT_CARD" },
    });
    expect(view!.payment!.receipt).toBeTruthy();
    expect(view!.payment!.transactionId).toBeTruthy();
    expect(view!.payment!.paidAt).toBeTruthy();
    expect(
      await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard)).then(() => 200, upstreamStatus),
    ).toBe(409);
  });

  it("cancels an open link once; a second cancel is refused plainly", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    expect(await cancelPaymentLink(linkPaymentUuid, context)).toMatchObject({ statusCode: 4, canCancel: false });
    expect(
      await db.auditLog.count({
        where: { action: "payment_link.cancelled", resourceId: linkPaymentUuid, actorId: context.actor.id },
      }),
    ).toBe(1);
    await expect(cancelPaymentLink(linkPaymentUuid, context)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "links.errors.alreadyCancelled",
    });
    expect(
      await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard)).then(() => 200, upstreamStatus),
    ).toBe(409);
  });

  it("refuses to cancel a link paid meanwhile (upstream 409) and shows it paid", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    // Paid upstream behind the mirror's back: the mirror still says CREATED.
    await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard));
    await expect(cancelPaymentLink(linkPaymentUuid, context)).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "links.errors.alreadyPaid",
    });
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).statusCode).toBe(3);
    expect(await db.auditLog.count({ where: { action: "payment_link.cancelled" } })).toBe(0);
  });

  it("shows an expired link as expired, which can still be cancelled but not paid", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    await sandbox.request("merchant", "POST", `/sandbox/v1/payment-links/${linkPaymentUuid}/expire`);
    expect(await getPaymentLinkView(linkPaymentUuid, { refresh: true })).toMatchObject({
      statusCode: 2,
      statusDescription: "EXPIRED",
      canCancel: true,
    });
    expect(
      await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard)).then(() => 200, upstreamStatus),
    ).toBe(409);
    expect(await cancelPaymentLink(linkPaymentUuid, context)).toMatchObject({ statusCode: 4 });
  });

  it("never moves a link back to an earlier state", async () => {
    const { linkPaymentUuid } = await createPaymentLink(newLink(), context);
    const open = await getPaymentLink(linkPaymentUuid);
    await upsertPaymentLinkFromGateway(await confirmPaymentLink(linkPaymentUuid, cardPayment(100, approvedCard)));
    expect((await upsertPaymentLinkFromGateway(open)).outcome).toBe("stale");
    expect((await upsertPaymentLinkFromGateway(await getPaymentLink(linkPaymentUuid))).outcome).toBe("unchanged");
    expect((await db.paymentLink.findUniqueOrThrow({ where: { linkPaymentUuid } })).statusCode).toBe(3);
  });

  it("answers null for a link nobody knows", async () => {
    expect(await getPaymentLinkView(randomUUID())).toBeNull();
  });

  it("filters the list by period, status, method, document, reference and receipt", async () => {
    const find = async (params: Record<string, string>) =>
      (await findPaymentLinks(ZPaymentLinkFilters.parse(params))).rows.map((row) => row.linkPaymentUuid);
    const active = (await createPaymentLink(newLink({ userReference: "ref-a", amountCents: 500 }), context))
      .linkPaymentUuid;
    const paid = (await createPaymentLink(newLink({ payerDocument: "11.222.333/0001-81", amountCents: 300 }), context))
      .linkPaymentUuid;
    const expired = (await createPaymentLink(newLink({ amountCents: 900 }), context)).linkPaymentUuid;
    const cancelled = (await createPaymentLink(newLink({ amountCents: 700 }), context)).linkPaymentUuid;
    const confirmed = await confirmPaymentLink(paid, cardPayment(3, approvedCard));
    await upsertPaymentLinkFromGateway(confirmed);
    await sandbox.request("merchant", "POST", `/sandbox/v1/payment-links/${expired}/expire`);
    await getPaymentLinkView(expired, { refresh: true });
    await cancelPaymentLink(cancelled, context);

    expect(await find({})).toEqual([cancelled, expired, paid, active]);
    expect(await find({ sort: "amount", order: "asc" })).toEqual([paid, active, cancelled, expired]);
    expect(await find({ status: "ATIVO" })).toEqual([active]);
    expect(await find({ status: "EXPIRADO" })).toEqual([expired]);
    expect(await find({ status: "PAGO" })).toEqual([paid]);
    expect(await find({ status: "CANCELADO" })).toEqual([cancelled]);
    expect(await find({ method: "1" })).toEqual([paid]);
    expect(await find({ method: "2" })).toEqual([]);
    expect(await find({ document: "11222333000181" })).toEqual([paid]);
    expect(await find({ document: "11.222.333/0001-81" })).toEqual([paid]);
    expect(await find({ userReference: "ref-a" })).toEqual([active]);
    expect(await find({ receipt: confirmed.comprovantePagamento! })).toEqual([paid]);
    expect(await find({ from: "2000-01-01", to: "2000-01-31" })).toEqual([]);
    const paged = await findPaymentLinks(ZPaymentLinkFilters.parse({ page: "2" }), 3);
    expect(paged).toMatchObject({ total: 4, page: 2, pageCount: 2 });
    expect(ZPaymentLinkFilters.parse({ status: "PAID", method: "3", page: "x" })).toMatchObject({
      status: undefined,
      method: undefined,
      page: 1,
    });
  });

  it("pulls the period's links from the gateway into the mirror in one call", async () => {
    const created = (await createPaymentLink(newLink(), context)).linkPaymentUuid;
    await db.paymentLink.deleteMany();
    const upstream = await upstreamLinkCount();
    expect(await refreshPaymentLinksFromGateway(defaultLinkPeriod())).toEqual({
      received: upstream,
      upserted: upstream,
    });
    expect(await db.paymentLink.count()).toBe(upstream);
    expect(await db.paymentLink.findUnique({ where: { linkPaymentUuid: created } })).not.toBeNull();
    expect(await refreshPaymentLinksFromGateway(defaultLinkPeriod())).toEqual({ received: upstream, upserted: 0 });
  });
});
