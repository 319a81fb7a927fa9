import { expect } from "@playwright/test";
import type { TParsedMail } from "./mail-parse";
import { mailboxPorts } from "./targets";

// The test side of e2e/servers/mailbox.ts: what the SMTP server received for one address.
export type TReceivedMail = TParsedMail & { recipients: string[]; receivedAt: string };

export async function mailTo(address: string): Promise<TReceivedMail[]> {
  const response = await fetch(`http://127.0.0.1:${mailboxPorts().http}/messages?to=${encodeURIComponent(address)}`);
  return (await response.json()) as TReceivedMail[];
}

// Waits until `count` messages reached the address, and returns them.
export async function waitForMail(address: string, count = 1): Promise<TReceivedMail[]> {
  await expect.poll(async () => (await mailTo(address)).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  return mailTo(address);
}

export function linkIn(mail: TParsedMail, path: "invite" | "reset-password"): string {
  const link = new RegExp(`https?://[^\\s"<>]+/${path}/[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
  if (!link) throw new Error(`no /${path}/ link in the mail "${mail.subject}"`);
  return new URL(link).pathname;
}
