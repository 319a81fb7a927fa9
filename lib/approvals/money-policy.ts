import "server-only";
import { defaultRoleId } from "@/lib/auth/roles";
import { takeTransactionLock } from "@/lib/db/locks";
import type { TMirrorClient } from "@/lib/db/mirror-write";
import { AppError } from "@/lib/errors";
import { periodBounds, toSaoPauloDay } from "@/lib/list/period";
import { readAppSetting, type TAppSettingKey, type TAppSettingValue } from "@/lib/settings/app-settings";

// The one policy for money back to a payer (docs/security.md), under the resource's lock: 1. per charge, refunded +
// pending + this one above the refund limit of the person's role needs a fresh code or a second person who approves; 2. per person, today's total
// (São Paulo day) + this one above the daily limit needs a second admin (a code does not lift it).

export type TMoneyReturnKind = "PIX_REFUND" | "CARD_CANCEL";
export type TMoneyHoldReason = "chargeTotal" | "dailyLimit";

export class MoneyApprovalRequiredError extends AppError {
  readonly reason: TMoneyHoldReason;

  constructor(reason: TMoneyHoldReason) {
    super(
      "CONFLICT",
      reason === "chargeTotal"
        ? "approvals.errors.approvalRequiredChargeTotal"
        : "approvals.errors.approvalRequiredDailyLimit",
    );
    this.name = "MoneyApprovalRequiredError";
    this.reason = reason;
  }
}

export function isMoneyApprovalRequired(error: unknown): error is MoneyApprovalRequiredError {
  return error instanceof MoneyApprovalRequiredError;
}

export type TMoneyReturnRequest = {
  kind: TMoneyReturnKind;
  resourceId: string;
  amountCents: number;
  priorCents: number;
  idempotencyKey: string;
  initiatedById: string | null;
  clearance: "none" | "stepUp" | "approved";
};

// Through the caller's transaction: the global client must not be used while it is open (PGlite has one connection).
async function readSetting<TKey extends TAppSettingKey>(tx: TMirrorClient, key: TKey): Promise<TAppSettingValue<TKey>> {
  const row = await tx.appSetting.findUnique({ where: { key } });
  return readAppSetting(key, row?.value);
}

// Serializes one person's money returns so two cannot both fit under the daily limit. Taken after the resource's lock,
// never before, so waits never form a cycle.
async function lockPerson(tx: TMirrorClient, personId: string): Promise<void> {
  await takeTransactionLock(tx, `money_person:${personId}`);
}

async function returnedTodayCents(client: TMirrorClient, personId: string, now: Date): Promise<number> {
  const { _sum } = await client.moneyReturn.aggregate({
    where: { initiatedById: personId, createdAt: periodBounds({ from: toSaoPauloDay(now), to: toSaoPauloDay(now) }) },
    _sum: { amountCents: true },
  });
  return _sum.amountCents ?? 0;
}

// The role's limit; money returned by no person (the command line) is held to the default role's.
export async function refundLimitOf(client: TMirrorClient, personId: string | null): Promise<number> {
  const role = await (personId
    ? client.user.findUnique({ where: { id: personId }, select: { role: { select: { refundLimitCents: true } } } })
    : null);
  if (role) return role.role.refundLimitCents;
  const fallback = await client.role.findUniqueOrThrow({
    where: { id: defaultRoleId },
    select: { refundLimitCents: true },
  });
  return fallback.refundLimitCents;
}

function exceedsChargeThreshold(thresholdCents: number, priorCents: number, amountCents: number): boolean {
  return thresholdCents > 0 && priorCents + amountCents > thresholdCents;
}

// Call under the resource's lock, in the transaction that calls upstream or claims the payment.
export async function admitMoneyReturn(tx: TMirrorClient, request: TMoneyReturnRequest, now = new Date()) {
  const { kind, amountCents, initiatedById, clearance } = request;
  if (clearance !== "approved") {
    const thresholdCents = await refundLimitOf(tx, initiatedById);
    if (clearance !== "stepUp" && exceedsChargeThreshold(thresholdCents, request.priorCents, amountCents)) {
      throw new MoneyApprovalRequiredError("chargeTotal");
    }
  }
  if (!initiatedById) return;
  await lockPerson(tx, initiatedById);
  if (clearance !== "approved") {
    const limitCents = await readSetting(tx, "dailyMoneyReturnLimitCents");
    if (limitCents > 0 && (await returnedTodayCents(tx, initiatedById, now)) + amountCents > limitCents) {
      throw new MoneyApprovalRequiredError("dailyLimit");
    }
  }
  // A recovered attempt of the same key is counted once.
  await tx.moneyReturn.upsert({
    where: { kind_idempotencyKey: { kind, idempotencyKey: request.idempotencyKey } },
    create: {
      kind,
      resourceId: request.resourceId,
      amountCents,
      idempotencyKey: request.idempotencyKey,
      initiatedById,
    },
    update: {},
  });
}

export async function forgetMoneyReturn(
  client: Pick<TMirrorClient, "moneyReturn">,
  kind: TMoneyReturnKind,
  idempotencyKey: string,
) {
  await client.moneyReturn.deleteMany({ where: { kind, idempotencyKey } });
}
