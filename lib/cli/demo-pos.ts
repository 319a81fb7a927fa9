// `npm run demo`'s POS seed (docs/pos.md "Demo"), run inside the demo process while it holds PGlite's one connection.
// Idempotent: each run adds only what is missing and rewrites .data/demo/pos.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { upsertCardPaymentFromGateway } from "@/lib/card-payments/mirror";
import { db } from "@/lib/db/client";
import { GatewayRefusedError } from "@/lib/gateway/errors";
import * as gateway from "@/lib/gateway/payments";
import type { TPaymentTransaction } from "@/lib/gateway/schemas/payment";
import type { CardPayment } from "@/lib/generated/prisma/client";
import { activateSeller } from "@/lib/pos/activation";
import { savePosConfig, savePosTenantConfig } from "@/lib/pos/admin-config";
import { ZSavePosConfigInput, ZSavePosTenantConfigInput } from "@/lib/pos/admin-schemas";
import { hashPosApiKey } from "@/lib/pos/api-key-format";
import { createPosApiKey, setSellerTokenVerification } from "@/lib/pos/api-keys";
import type { TPosCaller } from "@/lib/pos/authenticate";
import { runPosMatching } from "@/lib/pos/match";
import { ingestTransactionReport } from "@/lib/pos/reports";
import { openSellerTokenSecret } from "@/lib/pos/secrets";
import { posSellerTokenAudienceFor } from "@/lib/pos/seller-token";
import { signSellerToken } from "@/lib/pos-sdk/testing/seller-token";
import { brandFromBandeiraCartao, CARD_BRAND_NAMES } from "@/lib/shared/card";

export type TDemoPosFile = {
  baseUrl: string;
  apiKey: string;
  keyId: string;
  tenantId: string;
  sellerToken: { algorithm: "HS256"; secret: string; audience: string; tenantId: string };
  sellerReference: string;
  sellerId: string;
  posId: string;
  posIds: string[];
};

export const demoPosFile = path.resolve(".data/demo/pos.json");
const sellerReference = "demo-seller-001";
const context = { actor: null, userAgent: "cli:demo" };

// Sandbox test cards (sandbox/README.md): only their BIN and last four are kept, as for any card.
const demoSales = [
  { orderId: "pos-demo-1", card: "4111111111111111", bandeira: "1", amountCents: 4590, installments: 1, pdv: 0 },
  { orderId: "pos-demo-2", card: "5555555555554444", bandeira: "2", amountCents: 12_900, installments: 3, pdv: 0 },
  { orderId: "pos-demo-3", card: "4000000000000002", bandeira: "1", amountCents: 8990, installments: 1, pdv: 1 },
  { orderId: "pos-demo-4", card: "4111111111111111", bandeira: "1", amountCents: 2350, installments: 1, pdv: 1 },
  { orderId: "pos-demo-5", card: "4000000000009995", bandeira: "1", amountCents: 31_000, installments: 2, pdv: 0 },
] as const;

function readDemoPosFile(file: string): Partial<TDemoPosFile> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Partial<TDemoPosFile>;
  } catch {
    return {};
  }
}

async function ensureKey(previous: Partial<TDemoPosFile>) {
  const now = new Date();
  const existing = previous.apiKey
    ? await db.posApiKey.findUnique({ where: { keyHash: hashPosApiKey(previous.apiKey) } })
    : null;
  let key =
    existing && !existing.revokedAt && (!existing.expiresAt || existing.expiresAt > now)
      ? { id: existing.id, tenantId: existing.tenantId, prefix: existing.prefix, apiKey: previous.apiKey! }
      : null;
  if (!key) {
    const created = await createPosApiKey({ name: "Demo POS" }, context);
    key = { id: created.id, tenantId: created.tenantId, prefix: created.prefix, apiKey: created.key };
  }
  const row = await db.posApiKey.findUniqueOrThrow({ where: { id: key.id } });
  let secret: string | null = null;
  if (row.sellerTokenAlgorithm === "HS256" && row.sellerTokenSecretCiphertext) {
    try {
      secret = openSellerTokenSecret(row.sellerTokenSecretCiphertext, row.id);
    } catch {
      // Sealed under an older WEBHOOK_SECRET_KEY: a new secret below.
    }
  }
  secret ??= (await setSellerTokenVerification({ keyId: key.id, mode: "HS256" }, context)).secret!;
  const verifier = await db.posApiKey.findUniqueOrThrow({ where: { id: key.id } });
  const caller: TPosCaller = {
    keyId: key.id,
    keyHash: hashPosApiKey(key.apiKey),
    tenantId: key.tenantId,
    prefix: key.prefix,
    verifier: {
      algorithm: verifier.sellerTokenAlgorithm,
      secretCiphertext: verifier.sellerTokenSecretCiphertext,
      publicKey: verifier.sellerTokenPublicKey,
      jwksUrl: verifier.sellerTokenJwksUrl,
    },
  };
  return { ...key, secret, caller };
}

// Only when the tenant has none, so admin edits stay.
async function ensureTenantDefault(tenantId: string) {
  if (await db.posTransactionConfig.findUnique({ where: { tenantId } })) return;
  await savePosTenantConfig(
    ZSavePosTenantConfigInput.parse({
      tenantId,
      empresaGateway: "DEMO0001",
      enderecoGateway: "127.0.0.1:8443",
      cnpjCpf: "11222333000181",
      comExterna: "1",
      cnpjAutomacao: "11222333000181",
      cnpjFacilitador: "11222333000181",
      tokenRegistroTls: { action: "replace", value: "demo-tls-registration-token" },
    }),
    context,
  );
}

async function ensureSellerAndDevices(caller: TPosCaller, secret: string) {
  const activeDevices = () =>
    db.posDevice.findMany({
      where: { tenantId: caller.tenantId, status: "ACTIVE", seller: { reference: sellerReference, status: "ACTIVE" } },
      orderBy: { activatedAt: "asc" },
    });
  let devices = await activeDevices();
  for (let missing = 2 - devices.length; missing > 0; missing -= 1) {
    const token = await signSellerToken(
      { secret, audience: posSellerTokenAudienceFor(caller.tenantId) },
      sellerReference,
    );
    await activateSeller(caller, token);
  }
  devices = await activeDevices();
  const sellerId = devices[0]!.sellerId;
  const config = await db.posTransactionConfig.findUnique({ where: { sellerId } });
  if (!config) {
    await savePosConfig(
      ZSavePosConfigInput.parse({
        sellerId,
        empresaGateway: "DEMO0001",
        enderecoGateway: "127.0.0.1:8443",
        cnpjCpf: "11222333000181",
        comExterna: "1",
        cnpjAutomacao: "11222333000181",
        cnpjFacilitador: "11222333000181",
        primaryColor: "#0f172a",
        secondaryColor: "#f8fafc",
        tokenRegistroTls: { action: "replace", value: "demo-tls-registration-token" },
      }),
      context,
    );
  }
  return { sellerId, posIds: devices.slice(0, 2).map((device) => device.posId) };
}

async function payAtSandbox(sale: (typeof demoSales)[number]): Promise<TPaymentTransaction> {
  try {
    return await gateway.createPayment({
      identificacaoPagamento: sale.orderId,
      numeroParcelas: sale.installments,
      tipoParcelamento: sale.installments > 1 ? "4" : "3",
      bandeiraCartao: sale.bandeira,
      valor: sale.amountCents / 100,
      numeroCartao: sale.card,
      dataExpiracao: "12/30",
    });
  } catch (error) {
    // A refusal is a 201 with the refused transaction: it is a sale too (declined at the terminal).
    if (error instanceof GatewayRefusedError) return error.response as TPaymentTransaction;
    throw error;
  }
}

// What the payment application tells the PDV after a sale. The report's ids are the payment's: authorizationCode =
// numeroAutorizacao, nsuHost/nsuGateway = hostUsn/gatewayUsn.
export function posPaymentResultOf(payment: CardPayment) {
  const brand = brandFromBandeiraCartao(payment.brandCode ?? "");
  return {
    approved: payment.isApproved,
    codResp: Number.parseInt(payment.responseCode, 10) || 0,
    nsuGateway: payment.gatewayUsn ?? payment.id,
    nsuHost: payment.hostUsn ?? "",
    cardBrand: brand ? CARD_BRAND_NAMES[brand] : "",
    acquirerNetwork: payment.acquirerName ?? "",
    authorizationCode: payment.authorizationNumber ?? "",
    installments: payment.installmentCount,
  };
}

async function ensureSales(caller: TPosCaller, posIds: string[]): Promise<number> {
  let made = 0;
  for (const sale of demoSales) {
    let payment = await db.cardPayment.findFirst({ where: { orderId: sale.orderId }, orderBy: { createdAt: "asc" } });
    if (!payment) {
      const transaction = await payAtSandbox(sale);
      ({ payment } = await upsertCardPaymentFromGateway(transaction, {
        origin: "POS",
        cardBin: sale.card.slice(0, 6),
        cardLastFour: sale.card.slice(-4),
        installmentType: sale.installments > 1 ? "4" : "3",
        installmentCount: sale.installments,
      }));
      made += 1;
    }
    const outcome = await ingestTransactionReport(caller, {
      ...posPaymentResultOf(payment),
      posId: posIds[sale.pdv] ?? posIds[0]!,
      amountInCents: payment.amountCents,
      occurredAt: payment.occurredAt.toISOString(),
    }).catch((error: unknown) => {
      // A report of an earlier run on a PDV since blocked or replaced: the demo leaves it as it is.
      if (error instanceof Error && "status" in error) return "skipped" as const;
      throw error;
    });
    if (outcome === "stored") made += 1;
  }
  return made;
}

export async function ensureDemoPos(baseUrl: string, file = demoPosFile): Promise<TDemoPosFile> {
  const previous = readDemoPosFile(file);
  const key = await ensureKey(previous);
  await ensureTenantDefault(key.tenantId);
  const { sellerId, posIds } = await ensureSellerAndDevices(key.caller, key.secret);
  const made = await ensureSales(key.caller, posIds);
  if (made > 0) await runPosMatching();
  const settings: TDemoPosFile = {
    baseUrl,
    apiKey: key.apiKey,
    keyId: key.id,
    tenantId: key.tenantId,
    sellerToken: {
      algorithm: "HS256",
      secret: key.secret,
      audience: posSellerTokenAudienceFor(key.tenantId),
      tenantId: key.tenantId,
    },
    sellerReference,
    sellerId,
    posId: posIds[0]!,
    posIds,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2), { mode: 0o600 });
  return settings;
}
