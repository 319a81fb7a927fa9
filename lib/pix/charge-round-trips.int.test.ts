import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import * as gateway from "@/lib/gateway/pix-charges";
import { startGatewaySandbox } from "@/lib/testing/gateway-sandbox";
import { useAppDatabase } from "@/lib/testing/pglite";
import { trackDatabaseStatements } from "@/lib/testing/statement-count";
import { testBackends } from "@/lib/testing/test-database";
import type { TSandbox } from "@/sandbox/test/harness";
import { createPixCharge, getPixChargeView } from "./charges";
import { upsertPixChargeFromGateway } from "./mirror";
import { ZCreatePixChargeInput } from "./schemas";

vi.mock("@/lib/gateway/pix-charges", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/gateway/pix-charges")>();
  return { ...original, createPixCharge: vi.fn(original.createPixCharge) };
});

const database = trackDatabaseStatements();

describe.each(testBackends)("a Pix charge's round trips to the database (%s)", (backend) => {
  useAppDatabase(backend);
  let sandbox: TSandbox;
  let context: { actor: { id: string; email: string } };

  beforeAll(async () => {
    sandbox = await startGatewaySandbox();
    const user = await db.user.create({
      data: { email: `pix-round-trips-${randomUUID()}@example.com`, name: "Round trips", passwordHash: "x" },
    });
    context = { actor: { id: user.id, email: user.email } };
  });

  afterAll(async () => {
    await sandbox?.stop();
  });

  const input = () =>
    ZCreatePixChargeInput.parse({
      idempotencyKey: randomUUID(),
      amountCents: 2590,
      expirationSeconds: 600,
      debtor: { name: "Fulano de Tal", document: "529.982.247-25" },
      description: "Pedido 42",
    });

  it("is two statements (the key claimed, then the charge, the key's result, the audit entry and the live update at once), a replay two", async () => {
    const charge = input();
    const startedAt = new Date(Date.now() - 1000);
    database.reset();
    const { txid } = await createPixCharge(charge, context);
    expect(database.statements()).toHaveLength(2);

    const row = await db.pixCharge.findUniqueOrThrow({ where: { txid } });
    expect(row).toMatchObject({
      status: "ACTIVE",
      amountCents: 2590,
      expirationSeconds: 600,
      debtorName: "Fulano de Tal",
      debtorCpf: "52998224725",
      refundedCents: 0,
      createdById: context.actor.id,
      gatewayCheckedAt: null,
    });
    expect(row.raw).not.toHaveProperty("qrCodeBase64");
    // Stored as Prisma stores a timestamp (UTC wall time): read back, it is now, whatever the session's time zone.
    expect(row.syncedAt.getTime()).toBeGreaterThan(startedAt.getTime());
    expect(row.createdAt.getTime()).toBeLessThan(Date.now() + 1000);
    expect(Math.abs(row.expiresAt.getTime() - row.creationDate.getTime() - 600_000)).toBeLessThan(1000);
    expect((await getPixChargeView(txid))?.pixCopyAndPaste).toMatch(/^000201/);
    const key = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: "pix_charge", key: charge.idempotencyKey } },
    });
    expect(key).toMatchObject({ status: "SUCCEEDED", resultId: txid, attempts: 1 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { resourceId: txid } });
    expect(audit).toMatchObject({
      action: "pix_charge.created",
      actorId: context.actor.id,
      resourceType: "pix_charge",
    });

    database.reset();
    expect(await createPixCharge(charge, context)).toEqual({ txid });
    expect(database.statements()).toHaveLength(2);
    expect(await db.pixCharge.count({ where: { txid } })).toBe(1);
  });

  it("merges a charge the mirror already has (its webhook came first), and still records the key and the audit entry", async () => {
    const actual = await vi.importActual<typeof gateway>("@/lib/gateway/pix-charges");
    vi.mocked(gateway.createPixCharge).mockImplementationOnce(async (body) => {
      const created = await actual.createPixCharge(body);
      await upsertPixChargeFromGateway(created);
      return created;
    });
    const charge = input();
    const { txid } = await createPixCharge(charge, context);
    expect(await db.pixCharge.findUniqueOrThrow({ where: { txid } })).toMatchObject({
      status: "ACTIVE",
      createdById: context.actor.id,
    });
    const key = await db.idempotencyKey.findUniqueOrThrow({
      where: { scope_key: { scope: "pix_charge", key: charge.idempotencyKey } },
    });
    expect(key).toMatchObject({ status: "SUCCEEDED", resultId: txid });
    expect(await db.auditLog.count({ where: { resourceId: txid, action: "pix_charge.created" } })).toBe(1);
  });
});
