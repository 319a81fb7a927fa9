import { randomBytes, randomUUID } from "node:crypto";

// Seeded through the Prisma tables as the admin screens would; modules are imported late, after the env is set.

export async function startPosTestApp() {
  // The contract suite makes a few hundred calls in seconds on one key: lift the per-key limit for this process.
  process.env.POS_RATE_LIMIT_BURST = "100000";
  process.env.POS_RATE_LIMIT_PER_SECOND = "100000";
  process.env.LOG_LEVEL ??= "warn";
  const { db, disconnectDb } = await import("@/lib/db/client");
  const { generatePosApiKey, hashPosApiKey } = await import("@/lib/pos/api-key-format");
  const { sealSellerTokenSecret, sealTokenRegistroTls } = await import("@/lib/pos/secrets");
  const { posSellerTokenAudienceFor } = await import("@/lib/pos/seller-token");
  const { startAppServer } = await import("./app-server");
  const activate = await import("@/app/v1/sellers/activate/route");
  const config = await import("@/app/v1/transactions/config/route");
  const transactions = await import("@/app/v1/transactions/route");

  const tenantId = randomUUID();
  const keyId = randomUUID();
  const { key, prefix } = generatePosApiKey();
  const secret = randomBytes(32).toString("base64url");
  await db.posApiKey.create({
    data: {
      id: keyId,
      tenantId,
      name: "contract test",
      prefix,
      keyHash: hashPosApiKey(key),
      sellerTokenAlgorithm: "HS256",
      sellerTokenSecretCiphertext: sealSellerTokenSecret(secret, keyId),
    },
  });
  await db.posTransactionConfig.create({
    data: {
      tenantId,
      empresaGateway: "CONTRACT",
      enderecoGateway: "gateway.example.com:443",
      cnpjCpf: "11222333000181",
      comExterna: "1",
      tokenRegistroTlsCiphertext: sealTokenRegistroTls("contract-tls-token", { tenantId }),
      cnpjAutomacao: "11222333000181",
      cnpjFacilitador: "11222333000181",
    },
  });
  const blockedSellerReference = `blocked-${randomUUID()}`;
  await db.posSeller.create({
    data: {
      id: `sel_${randomUUID()}`,
      tenantId,
      reference: blockedSellerReference,
      subEstablishmentRef: "SEBLOCKED",
      status: "BLOCKED",
    },
  });
  const server = await startAppServer({
    "/v1/sellers/activate": { POST: activate.POST },
    "/v1/transactions/config": { GET: config.GET },
    "/v1/transactions": { POST: transactions.POST },
  });
  return {
    db,
    disconnectDb,
    server,
    key,
    secret,
    audience: posSellerTokenAudienceFor(tenantId),
    tenantId,
    blockedSellerReference,
  };
}

export type TPosTestApp = Awaited<ReturnType<typeof startPosTestApp>>;
