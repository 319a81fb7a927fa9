import * as OTPAuth from "otpauth";
import { confirmTwoFactorEnrolment, startTwoFactorEnrolment } from "@/lib/auth/two-factor";
import { db } from "@/lib/db/client";

// For seeds only: back-dated past the 24-hour wait, two-factor on. Enrolled with the code of 30 s ago, so the current
// and next steps stay free for a sign-in and an approval.
export async function makeIndependentApprover(user: { id: string; email: string }): Promise<string> {
  await db.user.update({ where: { id: user.id }, data: { createdAt: new Date(Date.now() - 2 * 24 * 60 * 60_000) } });
  const enrolment = await startTwoFactorEnrolment(user);
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolment.secret) }).generate({
    timestamp: Date.now() - 30_000,
  });
  await confirmTwoFactorEnrolment(user.id, { enrolmentToken: enrolment.enrolmentToken, code }, { actor: null });
  return enrolment.secret;
}
