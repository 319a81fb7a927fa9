import "server-only";
import { randomBytes } from "node:crypto";
import { inTransaction, type TTransactionClient } from "@/lib/db/client";
import { log } from "@/lib/log";
import type { TPosCaller } from "./authenticate";
import { posError } from "./errors";
import type { TActivationResult } from "./schemas";
import { verifySellerToken } from "./seller-token";

// The token's jti is recorded in the activation's transaction, so a replay (even a parallel one) is refused and a
// refused activation does not burn the token.

const jtiRetentionMs = 5 * 60_000;

const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
function randomCode(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
}

const newSellerId = () => `sel_${randomCode(16)}`;
const newPosId = () => `pos_${randomCode(16)}`;
const newSubEstablishmentRef = () => `SE${randomCode(10)}`;

async function findOrCreateSeller(tx: TTransactionClient, tenantId: string, reference: string) {
  // ON CONFLICT: two first activations of one seller in parallel end with one seller.
  await tx.$executeRaw`
    INSERT INTO "PosSeller" ("id", "tenantId", "reference", "subEstablishmentRef", "updatedAt")
    VALUES (${newSellerId()}, ${tenantId}::uuid, ${reference}, ${newSubEstablishmentRef()}, now())
    ON CONFLICT ("tenantId", "reference") DO NOTHING`;
  const seller = await tx.posSeller.findUnique({
    where: { tenantId_reference: { tenantId, reference } },
    select: {
      id: true,
      status: true,
      subEstablishmentRef: true,
      config: { select: { tokenRegistroTlsCiphertext: true } },
    },
  });
  if (!seller) throw new Error("seller row missing after insert");
  return seller;
}

export async function activateSeller(
  caller: TPosCaller,
  sellerToken: string,
  now = new Date(),
): Promise<TActivationResult> {
  const claims = await verifySellerToken(
    sellerToken,
    caller.verifier,
    { apiKeyId: caller.keyId, tenantId: caller.tenantId },
    now,
  );
  return inTransaction(async (tx) => {
    const recorded = await tx.$executeRaw`
      INSERT INTO "PosSellerTokenUse" ("tenantId", "jti", "expiresAt", "usedAt")
      VALUES (${caller.tenantId}::uuid, ${claims.jti}, ${claims.expiresAt}, ${now})
      ON CONFLICT ("tenantId", "jti") DO NOTHING`;
    if (recorded === 0) throw posError.business("token_replay", "invalid seller token: already used (jti replay)");
    // A jti only has to be remembered while its token could still verify (exp + clock tolerance): prune the rest.
    await tx.$executeRaw`DELETE FROM "PosSellerTokenUse" WHERE "expiresAt" < ${new Date(now.getTime() - jtiRetentionMs)}`;

    const seller = await findOrCreateSeller(tx, caller.tenantId, claims.sub);
    if (seller.status === "BLOCKED") throw posError.business("seller_refused", "seller refused");

    const tenantDefault = await tx.posTransactionConfig.findUnique({
      where: { tenantId: caller.tenantId },
      select: { tokenRegistroTlsCiphertext: true },
    });
    const tlsRegistered = Boolean(
      seller.config?.tokenRegistroTlsCiphertext ?? tenantDefault?.tokenRegistroTlsCiphertext,
    );
    const device = await tx.posDevice.create({
      data: {
        posId: newPosId(),
        sellerId: seller.id,
        tenantId: caller.tenantId,
        tlsRegistered,
        activatedAt: now,
        activatedByKey: caller.keyId,
      },
      select: { posId: true },
    });
    log.info(
      { event: "pos.activated", keyPrefix: caller.prefix, sellerId: seller.id, posId: device.posId },
      "PDV activated",
    );
    return { sellerId: seller.id, posId: device.posId, subEstablishmentRef: seller.subEstablishmentRef, tlsRegistered };
  });
}
