import "server-only";
import { randomBytes } from "node:crypto";
import { cookies } from "next/headers";
import { serverEnv } from "@/lib/config/server-env";
import { db } from "@/lib/db/client";
import { mailUser } from "@/lib/mail/notify-user";
import { hashLinkToken } from "./link-token";
import type { TRequestContext } from "./request-context";

// A device is a browser profile: a random id in a long-lived httpOnly cookie shared by its accounts (the server keeps
// its hash per user); a cleared cookie or a private window is new. IP and user agent only describe the sign-in in
// the mail: they change too often to identify anything.
const deviceCookieName = "device-id";
const deviceCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

export async function readOrIssueDeviceId(): Promise<string> {
  const jar = await cookies();
  const current = jar.get(deviceCookieName)?.value;
  if (current && /^[A-Za-z0-9_-]{22}$/.test(current)) return current;
  const issued = randomBytes(16).toString("base64url");
  jar.set(deviceCookieName, issued, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: serverEnv.APP_URL.startsWith("https://"),
    maxAge: deviceCookieMaxAgeSeconds,
  });
  return issued;
}

// Returns whether the user was told. The first device a user ever signs in from is no news, so it mails nothing.
export async function recordSignInDevice(
  userId: string,
  deviceId: string,
  context: TRequestContext,
  now = new Date(),
): Promise<boolean> {
  const deviceHash = hashLinkToken(deviceId);
  const known = await db.knownDevice.updateMany({ where: { userId, deviceHash }, data: { lastSeenAt: now } });
  if (known.count > 0) return false;
  const hasOtherDevices = (await db.knownDevice.count({ where: { userId } })) > 0;
  await db.knownDevice.createMany({
    data: [{ userId, deviceHash, firstSeenAt: now, lastSeenAt: now }],
    skipDuplicates: true,
  });
  if (!hasOtherDevices) return false;
  await mailUser(userId, "newDevice", { at: now, ip: context.ip, userAgent: context.userAgent?.slice(0, 200) ?? null });
  return true;
}
