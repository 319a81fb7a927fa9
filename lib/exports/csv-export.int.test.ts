import { randomUUID } from "node:crypto";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/exports/[kind]/route";
import { permissionsOfRole } from "@/lib/auth/roles";
import { getSessionCookie } from "@/lib/auth/session-cookie";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { findPixCharges } from "@/lib/pix/charges";
import { ZPixChargeFilters } from "@/lib/pix/schemas";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { cellFormat, exportMessages } from "./format";
import { exportKinds, exportLists, type TExportKind } from "./registry";

// The CSV exports through their one route handler, as a signed-in user (a real session cookie for a real user row).

const jar = vi.hoisted(() => new Map<string, string>());

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    has: (name: string) => jar.has(name),
    set: () => undefined,
    delete: () => undefined,
  }),
  headers: async () => new Headers({ "user-agent": "vitest" }),
}));

type TTestRole = "operations" | "administrator";
const tokens = new Map<TTestRole, string>();

// Every list answers through the one route; `get` passes the kind from the path, as Next.js does.
const exportAudit = exportRoute;
const exportLinks = exportRoute;
const exportPixCharges = exportRoute;
const exportWebhookDeliveries = exportRoute;

// 2026-11-20 12:34:56 in São Paulo (UTC-3) is 15:34:56 UTC.
const spTime = (day: string, time = "12:34:56") => new Date(`${day}T${time}-03:00`);

function charge(overrides: Partial<Prisma.PixChargeCreateManyInput>): Prisma.PixChargeCreateManyInput {
  const creationDate = overrides.creationDate ? new Date(overrides.creationDate) : spTime("2026-11-20");
  return {
    txid: randomUUID().replaceAll("-", ""),
    amountCents: 123456,
    status: "ACTIVE",
    creationDate,
    expirationSeconds: 3600,
    expiresAt: new Date(creationDate.getTime() + 3600_000),
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

function paymentLink(overrides: Partial<Prisma.PaymentLinkCreateManyInput>): Prisma.PaymentLinkCreateManyInput {
  const creationDate = overrides.creationDate ? new Date(overrides.creationDate) : spTime("2026-08-10");
  return {
    linkPaymentUuid: randomUUID(),
    linkPaymentId: 7,
    statusCode: 1,
    statusDescription: "CRIADO",
    amountCents: 5000,
    payerName: "Ana",
    payerDocument: "12345678901",
    isForeignPayer: false,
    installments: 1,
    installmentOptions: [],
    acceptedMethodCodes: [1, 3],
    paymentUrl: "https://example.com/pay",
    verificationCode: "123456",
    creationDate,
    expirationDays: 30,
    expiresAt: new Date(creationDate.getTime() + 30 * 86_400_000),
    raw: {},
    syncedAt: new Date(),
    ...overrides,
  };
}

async function get(
  handler: typeof exportPixCharges,
  path: string,
  options: { roleId?: TTestRole; locale?: string } = {},
) {
  jar.clear();
  const token = options.roleId && tokens.get(options.roleId);
  if (token) jar.set(getSessionCookie().name, token);
  const cookie = options.locale ? `NEXT_LOCALE=${options.locale}` : "";
  const kind = new URL(path, "http://127.0.0.1").pathname.split("/").at(-1)!;
  return handler(new Request(`http://127.0.0.1${path}`, { headers: cookie ? { cookie } : {} }), {
    params: Promise.resolve({ kind }),
  });
}

async function csvOf(response: Response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder("utf-8").decode(bytes);
  return { bytes, text, lines: text.split("\r\n").filter((line) => line !== "") };
}

// An Operations and an Administrator user in the current database, and their session tokens.
async function signIn() {
  for (const roleId of ["operations", "administrator"] as const) {
    const user = await db.user.create({
      data: { email: `export-${roleId}-${randomUUID()}@example.com`, name: roleId, passwordHash: "x", roleId },
    });
    const token = { sub: user.id, email: user.email, name: user.name, roleId, sessionVersion: user.sessionVersion };
    tokens.set(roleId, await encode({ token, secret: serverEnv.AUTH_SECRET }));
  }
}

describe("CSV exports", () => {
  beforeAll(async () => {
    await db.pixCharge.deleteMany();
    await db.auditLog.deleteMany();
    await signIn();
    // 2,500 active charges in the period (more than two batches of 1,000, all at the same instant so the keyset's
    // tie-breaker is what moves it on), and a few that the filters leave out.
    await db.pixCharge.createMany({
      data: Array.from({ length: 2500 }, (_, index) => charge({ txid: `active${String(index).padStart(20, "0")}` })),
    });
    await db.pixCharge.createMany({
      data: [
        charge({
          txid: "paidcharge00000000000000001",
          status: "PAID",
          amountCents: 99,
          description: '=HYPERLINK("x")',
          debtorName: "Ana; Souza",
          paidAt: spTime("2026-11-21", "23:59:30"),
        }),
        charge({ txid: "outside00000000000000000001", creationDate: spTime("2026-10-01") }),
        charge({
          txid: "withdocument000000000000001",
          creationDate: spTime("2026-09-15"),
          debtorCpf: "12345678901",
          debtorName: "-Ana",
        }),
      ],
    });
  });

  afterAll(() => jar.clear());

  it("streams the filtered Pix charges with a BOM, `;`, the pt-BR header and pt-BR amounts and dates", async () => {
    const response = await get(
      exportPixCharges,
      "/api/exports/pix-charges?from=2026-11-01&to=2026-11-30&status=ACTIVE",
      {
        roleId: "operations",
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="pix-charges-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const { bytes, lines } = await csvOf(response);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(lines[0]).toBe(
      "Txid;Status;Valor (R$);Criada em;Expira em;Paga em;Valor pago (R$);Devolvido (R$);Devedor;CPF/CNPJ do devedor;" +
        "Pagador;Descrição;Referência;EndToEndId",
    );
    expect(lines).toHaveLength(1 + 2500);
    // Newest first, then by txid descending: the tie-breaker carries the keyset across batches without a gap.
    expect(new Set(lines.slice(1).map((line) => line.split(";")[0])).size).toBe(2500);
    expect(lines[1]).toBe(
      "active00000000000000002499;ACTIVE;1.234,56;20/11/2026 12:34:56;20/11/2026 13:34:56;;;0,00;;;;;;",
    );
  });

  it("writes en amounts and dates for an en reader, quotes `;` and defuses formulas", async () => {
    const response = await get(exportPixCharges, "/api/exports/pix-charges?from=2026-11-01&to=2026-11-30&status=PAID", {
      roleId: "administrator",
      locale: "en",
    });
    const { lines } = await csvOf(response);
    expect(lines[0]?.startsWith("Txid;Status;Amount (BRL);Created at;")).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      "paidcharge00000000000000001;PAID;0.99;11/20/2026 12:34:56;11/20/2026 13:34:56;11/21/2026 23:59:30;;0.00;" +
        '"Ana; Souza";;;"\'=HYPERLINK(""x"")";;',
    );
  });

  it("masks the payer's CPF/CNPJ for Operations and shows it whole to Administrators", async () => {
    const path = "/api/exports/pix-charges?from=2026-09-01&to=2026-09-30";
    const staff = (await csvOf(await get(exportPixCharges, path, { roleId: "operations" }))).lines;
    const admin = (await csvOf(await get(exportPixCharges, path, { roleId: "administrator" }))).lines;
    expect(staff).toHaveLength(2);
    // Typed text starting with "-" is defused too.
    expect(staff[1]).toContain(";'-Ana;***.456.789-**;");
    expect(staff[1]).not.toContain("12345678901");
    expect(admin[1]).toContain(";'-Ana;12345678901;");
  });

  // Upstream keeps such a link CREATED by design; the app's record of the Pix payment is what the export shows.
  it("exports a link paid through its Pix charge as paid by Pix, with the charge's txid as the receipt", async () => {
    const linkPaymentUuid = randomUUID();
    const pixPaidAt = spTime("2026-08-11", "10:00:00");
    await db.paymentLink.create({
      data: paymentLink({
        linkPaymentUuid,
        expiresAt: spTime("2026-09-09"),
        pixPaidTxid: "linkpaidbypix000000000000001",
        pixPaidAt,
      }),
    });
    const response = await get(exportLinks, "/api/exports/links?from=2026-08-01&to=2026-08-31", {
      roleId: "administrator",
    });
    const { lines } = await csvOf(response);
    expect(lines).toHaveLength(2);
    const cells = lines[1]!.split(";");
    expect(cells[0]).toBe(linkPaymentUuid);
    expect(cells[1]).toBe("PAGO");
    expect(lines[1]).toContain(";11/08/2026 10:00:00;PIX;");
    expect(lines[1]?.endsWith(";linkpaidbypix000000000000001")).toBe(true);
  });

  it("defuses a formula in any text column, such as an event name a webhook sender chose", async () => {
    const deliveryId = randomUUID();
    await db.webhookDelivery.create({
      data: {
        pathId: randomUUID(),
        deliveryId,
        event: '=HYPERLINK("http://evil.example","pix_charge.paid")',
        headers: {},
        rawBody: Buffer.alloc(0),
        signatureValid: false,
        outcome: "REJECTED_SIGNATURE",
      },
    });
    const response = await get(exportWebhookDeliveries, `/api/exports/webhook-deliveries?deliveryId=${deliveryId}`, {
      roleId: "administrator",
    });
    const { lines } = await csvOf(response);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.split(";")[2]).toBe('"\'=HYPERLINK(""http://evil.example"",""pix_charge.paid"")"');
  });

  it("records one audit entry per export with the list, its filters and the row count", async () => {
    await db.auditLog.deleteMany();
    const response = await get(
      exportPixCharges,
      "/api/exports/pix-charges?from=2026-11-01&to=2026-11-30&status=PAID&page=3",
      {
        roleId: "operations",
      },
    );
    await response.arrayBuffer();
    const entries = await db.auditLog.findMany({ where: { action: "export.downloaded" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      resourceType: "export",
      resourceId: "pixCharges",
      metadata: {
        list: "pixCharges",
        filters: { from: "2026-11-01", to: "2026-11-30", status: "PAID" },
        rows: 1,
        completed: true,
      },
    });
  });

  it("authorizes like the list pages: payments.view for the lists, audit.view for the audit log", async () => {
    expect((await get(exportPixCharges, "/api/exports/pix-charges")).status).toBe(401);
    expect((await get(exportAudit, "/api/exports/audit", { roleId: "operations" })).status).toBe(403);
    const response = await get(exportAudit, "/api/exports/audit?action=export.downloaded", { roleId: "administrator" });
    expect(response.status).toBe(200);
    const { lines } = await csvOf(response);
    expect(lines[0]).toBe("Data;Usuário;Ação;Tipo de recurso;Recurso;IP;Detalhes");
    expect(lines.length).toBeGreaterThan(1);
  });

  it("shows the list's total amount from the same filters", async () => {
    const filters = ZPixChargeFilters.parse({ from: "2026-11-01", to: "2026-11-30", status: "ACTIVE" });
    const page = await findPixCharges(filters);
    expect(page.total).toBe(2500);
    expect(page.totalCents).toBe(2500 * 123456);
  });
});

// The one route answers every registered kind, authorized per kind, and 404 for any other; each kind reads its
// list's rows newest first in keyset batches. On PostgreSQL and on the embedded PGlite.

// A month no other test writes in: every list's period filter selects exactly the rows made here.
const period = { gte: new Date("2019-03-01T03:00:00Z"), lt: new Date("2019-04-01T03:00:00Z") };
const query = "from=2019-03-01&to=2019-03-31";
// Five rows a kind: the last two share a later instant, the first three an earlier one, so batches of two cross
// both a change of date and a tie that only the tie-breaker orders.
const early = new Date("2019-03-10T12:00:00Z");
const late = new Date("2019-03-20T12:00:00Z");
const rowCount = 5;
const dateOf = (index: number) => (index < 3 ? early : late);
const uuidOf = (index: number) => `00000000-0000-4000-8000-00000000001${index}`;

// Each kind's first cell names its row (the audit log shows no id: its resource id stands in).
const labelOf: Record<TExportKind, (index: number) => string> = {
  pixCharges: (index) => `EXPORTROUTE${index}`,
  refunds: (index) => `EXPORTROUTE-REFUND-${index}`,
  links: (index) => uuidOf(index),
  cardPayments: (index) => `EXPORTROUTE-CARD-${index}`,
  webhookDeliveries: (index) => uuidOf(index),
  audit: (index) => `exportroute-${index}`,
};
const labelColumn: Record<TExportKind, number> = {
  pixCharges: 0,
  refunds: 0,
  links: 0,
  cardPayments: 0,
  webhookDeliveries: 0,
  audit: 4,
};
// Newest first, then the unique id descending (the labels sort as the ids do).
const expectedOrder = (kind: TExportKind) =>
  Array.from({ length: rowCount }, (_, index) => index)
    .sort((a, b) => dateOf(b).getTime() - dateOf(a).getTime() || b - a)
    .map(labelOf[kind]);

async function seed() {
  await db.pixCharge.deleteMany({ where: { creationDate: period } });
  await db.pixCharge.deleteMany({ where: { txid: "EXPORTROUTEPARENT" } });
  await db.paymentLink.deleteMany({ where: { creationDate: period } });
  await db.cardPayment.deleteMany({ where: { occurredAt: period } });
  await db.webhookDelivery.deleteMany({ where: { receivedAt: period } });
  await db.auditLog.deleteMany({ where: { occurredAt: period } });
  const indexes = Array.from({ length: rowCount }, (_, index) => index);
  // The refunds' charge falls outside the period, so it is no row of the charges' export.
  await db.pixCharge.create({
    data: charge({ txid: "EXPORTROUTEPARENT", creationDate: new Date("2019-01-15T12:00:00Z") }),
  });
  await db.pixCharge.createMany({
    data: indexes.map((index) => charge({ txid: labelOf.pixCharges(index), creationDate: dateOf(index) })),
  });
  await db.pixRefund.createMany({
    data: indexes.map((index) => ({
      pixRefundId: labelOf.refunds(index),
      txid: "EXPORTROUTEPARENT",
      amountCents: 100,
      statusCode: 1,
      statusDescription: "EM PROCESSAMENTO",
      creationDate: dateOf(index),
      raw: {},
      syncedAt: new Date(),
    })),
  });
  await db.paymentLink.createMany({
    data: indexes.map((index) =>
      paymentLink({
        linkPaymentUuid: labelOf.links(index),
        linkPaymentId: 9_900_000 + index,
        creationDate: dateOf(index),
      }),
    ),
  });
  await db.cardPayment.createMany({
    data: indexes.map((index) => ({
      id: labelOf.cardPayments(index),
      status: "CON",
      responseCode: "00",
      responseMessage: "APROVADA",
      isApproved: true,
      amountCents: 2500,
      occurredAt: dateOf(index),
      origin: "TERMINAL" as const,
      raw: {},
      syncedAt: new Date(),
    })),
  });
  await db.webhookDelivery.createMany({
    data: indexes.map((index) => ({
      id: labelOf.webhookDeliveries(index),
      pathId: randomUUID(),
      receivedAt: dateOf(index),
      headers: {},
      rawBody: Buffer.alloc(0),
      signatureValid: true,
      outcome: "APPLIED" as const,
    })),
  });
  await db.auditLog.createMany({
    data: indexes.map((index) => ({
      id: uuidOf(index),
      occurredAt: dateOf(index),
      actorEmail: "someone@example.com",
      action: "export.downloaded",
      resourceType: "export",
      resourceId: labelOf.audit(index),
    })),
  });
}

function exportRouteTests() {
  beforeAll(async () => {
    await seed();
    await signIn();
  });

  it.each(exportKinds)(
    "answers %s at its path, authorized as its list page, with its rows newest first",
    async (kind) => {
      const list = exportLists[kind];
      const path = `/api/exports/${list.path}?${query}`;
      expect((await get(exportRoute, path)).status).toBe(401);
      const staff = await get(exportRoute, path, { roleId: "operations" });
      expect(staff.status).toBe(permissionsOfRole("operations", null).includes(list.permission) ? 200 : 403);
      await staff.body?.cancel();

      const response = await get(exportRoute, path, { roleId: "administrator" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="${list.fileName}-\\d{4}-\\d\\d-\\d\\d\\.csv"$`),
      );
      const [header, ...rows] = (await csvOf(response)).lines;
      const labels = exportMessages["pt-BR"].exportColumns[kind] as Record<string, string>;
      expect(header).toBe(list.columnKeys.map((key) => labels[key]).join(";"));
      expect(rows.map((row) => row.split(";")[labelColumn[kind]])).toEqual(expectedOrder(kind));
    },
  );

  it("answers 404 to a signed-in user for a kind no list has, and 401 to an anonymous one", async () => {
    for (const kind of ["pix", "pixCharges", "users", "constructor", "__proto__"]) {
      expect((await get(exportRoute, `/api/exports/${kind}`)).status, kind).toBe(401);
      for (const roleId of ["operations", "administrator"] as const) {
        const response = await get(exportRoute, `/api/exports/${kind}`, { roleId });
        expect(response.status, `${kind} as ${roleId}`).toBe(404);
        expect(await response.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
      }
    }
  });

  it.each(exportKinds)("reads %s in keyset batches, across ties, without a gap or a repeat", async (kind) => {
    const list = exportLists[kind];
    const filters = list.readFilters(new URLSearchParams(query));
    const batches: string[][] = [];
    for await (const batch of list.batches(
      filters,
      cellFormat("pt-BR", { permissions: permissionsOfRole("administrator", null) }),
      2,
    ))
      batches.push(batch.map((cells) => String(cells[labelColumn[kind]])));
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(batches.flat()).toEqual(expectedOrder(kind));
  });
}

describe("the export route on PostgreSQL", () => {
  exportRouteTests();
});

describe("the export route on the embedded PGlite", () => {
  let embedded: { close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
  });
  exportRouteTests();
});
