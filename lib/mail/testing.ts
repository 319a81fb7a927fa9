import { db } from "@/lib/db/client";
import { getMail } from "./outbox";

// The link the latest outbox message to `to` carries (tests read what the recipient would).
export async function latestLinkMailedTo(to: string, path: "invite" | "reset-password"): Promise<string | null> {
  const latest = await db.mailMessage.findFirst({ where: { to }, orderBy: { createdAt: "desc" } });
  if (!latest) return null;
  const text = (await getMail(latest.id))?.body?.text ?? "";
  return new RegExp(`/${path}/([A-Za-z0-9_-]+)`).exec(text)?.[1] ?? null;
}
