import * as OTPAuth from "otpauth";
import { makeIndependentApprover as seedIndependentApprover } from "@/lib/cli/seed-approver";
import { db } from "@/lib/db/client";

const secrets = new Map<string, string>();

export async function makeIndependentApprover(user: { id: string; email: string }): Promise<void> {
  secrets.set(user.id, await seedIndependentApprover(user));
}

// A code for the earliest step not used yet that the one-step drift window still accepts: up to three approvals in
// one 30-second step; more would have to wait, as a person would.
export async function freshApproverCode(userId: string, now = new Date()): Promise<string> {
  const secret = secrets.get(userId);
  if (!secret) throw new Error("call makeIndependentApprover first");
  const { totpLastUsedStep } = await db.user.findUniqueOrThrow({ where: { id: userId } });
  const currentStep = Math.floor(now.getTime() / 30_000);
  const step = Math.max(currentStep - 1, (totpLastUsedStep ?? 0) + 1);
  if (step > currentStep + 1) throw new Error("no unused code left in this 30-second step");
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: step * 30_000 });
}
