import "server-only";
import { createPublicKey, randomBytes, randomUUID } from "node:crypto";
import { importSPKI } from "jose";
import type { z } from "zod";
import { auditFieldsOf, recordAudit, type TChangeContext } from "@/lib/audit/audit-log";
import { db, inTransaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { PosApiKey, Prisma } from "@/lib/generated/prisma/client";
import { periodBounds } from "@/lib/list/period";
import type {
  TPosSellerTokenAlgorithm,
  ZCreatePosApiKeyInput,
  ZRotatePosApiKeyInput,
  ZSellerTokenVerificationInput,
} from "./admin-schemas";
import { generatePosApiKey, hashPosApiKey } from "./api-key-format";
import { checkJwksUrl } from "./jwks";
import { openSellerTokenSecret, sealSellerTokenSecret } from "./secrets";

// Only a key's SHA-256 and public prefix are stored. A rotated key is a new key of the same tenant; the old one
// stays valid until an admin revokes it, so devices can move over.

type TPosApiKeyStatus = "active" | "expired" | "revoked";

export type TPosApiKeyRow = {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  status: TPosApiKeyStatus;
  createdAt: Date;
  createdByEmail: string | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  sellerTokenAlgorithm: TPosSellerTokenAlgorithm | null;
  sellerTokenMode: "HS256" | "PEM" | "JWKS" | null;
  sellerTokenJwksUrl: string | null;
  sellerCount: number;
};

export type TCreatedPosApiKey = { id: string; tenantId: string; prefix: string; key: string };

function posApiKeyStatus(key: Pick<PosApiKey, "revokedAt" | "expiresAt">, now: Date = new Date()): TPosApiKeyStatus {
  if (key.revokedAt) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

function expiryOf(expiresOn: string | undefined, now: Date): Date | null {
  if (!expiresOn) return null;
  const expiresAt = periodBounds({ to: expiresOn }).lt!;
  if (expiresAt <= now)
    throw new AppError("VALIDATION_FAILED", "pos.errors.pastExpiry", { fieldErrors: { expiresOn: "pastExpiry" } });
  return expiresAt;
}

async function insertKey(
  tx: Prisma.TransactionClient,
  data: { tenantId: string; name: string; expiresAt: Date | null; createdById: string | null },
  copyVerificationFrom?: PosApiKey,
): Promise<TCreatedPosApiKey> {
  const { key, prefix } = generatePosApiKey();
  const id = randomUUID();
  const verification = copyVerificationFrom
    ? {
        sellerTokenAlgorithm: copyVerificationFrom.sellerTokenAlgorithm,
        // Re-sealed for the new row: the box is bound to its key id.
        sellerTokenSecretCiphertext: copyVerificationFrom.sellerTokenSecretCiphertext
          ? sealSellerTokenSecret(
              openSellerTokenSecret(copyVerificationFrom.sellerTokenSecretCiphertext, copyVerificationFrom.id),
              id,
            )
          : null,
        sellerTokenPublicKey: copyVerificationFrom.sellerTokenPublicKey,
        sellerTokenJwksUrl: copyVerificationFrom.sellerTokenJwksUrl,
      }
    : {};
  await tx.posApiKey.create({
    data: { id, ...data, prefix, keyHash: hashPosApiKey(key), ...verification },
  });
  return { id, tenantId: data.tenantId, prefix, key };
}

export async function createPosApiKey(
  { name, expiresOn }: z.output<typeof ZCreatePosApiKeyInput>,
  context: TChangeContext,
): Promise<TCreatedPosApiKey> {
  const expiresAt = expiryOf(expiresOn, new Date());
  return inTransaction(async (tx) => {
    const created = await insertKey(tx, {
      tenantId: randomUUID(),
      name,
      expiresAt,
      createdById: context.actor?.id ?? null,
    });
    await recordAudit(
      {
        ...auditFieldsOf(context, "pos_api_key", created.id),
        action: "pos_api_key.created",
        metadata: {
          name,
          prefix: created.prefix,
          tenantId: created.tenantId,
          expiresAt: expiresAt?.toISOString() ?? null,
        },
      },
      tx,
    );
    return created;
  });
}

export async function rotatePosApiKey(
  { keyId, name, expiresOn }: z.output<typeof ZRotatePosApiKeyInput>,
  context: TChangeContext,
): Promise<TCreatedPosApiKey> {
  const expiresAt = expiryOf(expiresOn, new Date());
  return inTransaction(async (tx) => {
    const previous = await tx.posApiKey.findUnique({ where: { id: keyId } });
    if (!previous) throw new AppError("NOT_FOUND", "pos.errors.invalidKey");
    if (previous.revokedAt) throw new AppError("CONFLICT", "pos.errors.keyRevoked");
    const created = await insertKey(
      tx,
      { tenantId: previous.tenantId, name, expiresAt, createdById: context.actor?.id ?? null },
      previous,
    );
    await recordAudit(
      {
        ...auditFieldsOf(context, "pos_api_key", created.id),
        action: "pos_api_key.rotated",
        metadata: { name, prefix: created.prefix, tenantId: created.tenantId, replacesPrefix: previous.prefix },
      },
      tx,
    );
    return created;
  });
}

export async function revokePosApiKey(keyId: string, context: TChangeContext): Promise<void> {
  await inTransaction(async (tx) => {
    const key = await tx.posApiKey.findUnique({ where: { id: keyId } });
    if (!key) throw new AppError("NOT_FOUND", "pos.errors.invalidKey");
    if (key.revokedAt) throw new AppError("CONFLICT", "pos.errors.keyRevoked");
    await tx.posApiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    await recordAudit(
      {
        ...auditFieldsOf(context, "pos_api_key", keyId),
        action: "pos_api_key.revoked",
        metadata: { name: key.name, prefix: key.prefix, tenantId: key.tenantId },
      },
      tx,
    );
  });
}

function verificationModeOf(key: PosApiKey): TPosApiKeyRow["sellerTokenMode"] {
  if (key.sellerTokenSecretCiphertext) return "HS256";
  if (key.sellerTokenPublicKey) return "PEM";
  if (key.sellerTokenJwksUrl) return "JWKS";
  return null;
}

export async function listPosApiKeys(now: Date = new Date()): Promise<TPosApiKeyRow[]> {
  const keys = await db.posApiKey.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    include: { createdBy: { select: { email: true } } },
  });
  const sellers = await db.posSeller.groupBy({ by: ["tenantId"], _count: { _all: true } });
  const sellersByTenant = new Map(sellers.map((row) => [row.tenantId, row._count._all]));
  return keys.map((key) => ({
    id: key.id,
    tenantId: key.tenantId,
    name: key.name,
    prefix: key.prefix,
    status: posApiKeyStatus(key, now),
    createdAt: key.createdAt,
    createdByEmail: key.createdBy?.email ?? null,
    lastUsedAt: key.lastUsedAt,
    expiresAt: key.expiresAt,
    revokedAt: key.revokedAt,
    sellerTokenAlgorithm: (key.sellerTokenAlgorithm as TPosSellerTokenAlgorithm | null) ?? null,
    sellerTokenMode: verificationModeOf(key),
    sellerTokenJwksUrl: key.sellerTokenJwksUrl,
    sellerCount: sellersByTenant.get(key.tenantId) ?? 0,
  }));
}

async function assertPublicKey(pem: string, algorithm: "RS256" | "ES256"): Promise<void> {
  const fail = () =>
    new AppError("VALIDATION_FAILED", "pos.errors.invalidPublicKey", {
      fieldErrors: { publicKey: "invalidPublicKey" },
    });
  if (!pem.includes("-----BEGIN PUBLIC KEY-----")) throw fail();
  try {
    await importSPKI(pem, algorithm);
    const key = createPublicKey(pem);
    if (algorithm === "RS256" && key.asymmetricKeyType !== "rsa") throw fail();
    if (
      algorithm === "ES256" &&
      (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1")
    )
      throw fail();
  } catch {
    throw fail();
  }
}

export async function setSellerTokenVerification(
  settings: z.output<typeof ZSellerTokenVerificationInput>,
  context: TChangeContext,
): Promise<{ secret: string | null }> {
  if (settings.mode === "PEM") await assertPublicKey(settings.publicKey, settings.algorithm);
  // Checked again on every fetch (pinned there); refused here so the admin learns it at once.
  if (settings.mode === "JWKS")
    await checkJwksUrl(settings.jwksUrl).catch(() => {
      throw new AppError("VALIDATION_FAILED", "pos.errors.jwksNotPublic", {
        fieldErrors: { jwksUrl: "jwksNotPublic" },
      });
    });
  const secret = settings.mode === "HS256" ? randomBytes(32).toString("base64url") : null;

  await inTransaction(async (tx) => {
    const key = await tx.posApiKey.findUnique({ where: { id: settings.keyId } });
    if (!key) throw new AppError("NOT_FOUND", "pos.errors.invalidKey");
    if (key.revokedAt) throw new AppError("CONFLICT", "pos.errors.keyRevoked");
    await tx.posApiKey.update({
      where: { id: key.id },
      data: {
        sellerTokenAlgorithm: settings.mode === "HS256" ? "HS256" : settings.algorithm,
        sellerTokenSecretCiphertext: secret ? sealSellerTokenSecret(secret, key.id) : null,
        sellerTokenPublicKey: settings.mode === "PEM" ? settings.publicKey : null,
        sellerTokenJwksUrl: settings.mode === "JWKS" ? settings.jwksUrl : null,
      },
    });
    await recordAudit(
      {
        ...auditFieldsOf(context, "pos_api_key", key.id),
        action: "pos_api_key.verification_changed",
        metadata: {
          prefix: key.prefix,
          mode: settings.mode,
          algorithm: settings.mode === "HS256" ? "HS256" : settings.algorithm,
          jwksUrl: settings.mode === "JWKS" ? settings.jwksUrl : null,
        },
      },
      tx,
    );
  });
  return { secret };
}
