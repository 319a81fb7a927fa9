import "server-only";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { openSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db/client";
import type { MailMessage } from "@/lib/generated/prisma/client";
import { outboxBodyPurpose } from "./send";

export const outboxPageSize = 20;

export type TMailSummary = Pick<
  MailMessage,
  "id" | "to" | "template" | "locale" | "subject" | "transport" | "status" | "createdAt"
>;

const summarySelect = {
  id: true,
  to: true,
  template: true,
  locale: true,
  subject: true,
  transport: true,
  status: true,
  createdAt: true,
} as const;

// Newest first, by page number: an admin's look at what was sent, not a feed that needs keyset paging.
export async function listMail(page: number): Promise<{ rows: TMailSummary[]; pageCount: number }> {
  const rows = await db.mailMessage.findMany({
    select: summarySelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * outboxPageSize,
    take: outboxPageSize,
  });
  const total = await db.mailMessage.count();
  return { rows, pageCount: Math.max(1, Math.ceil(total / outboxPageSize)) };
}

export type TMailView = TMailSummary & { error: string | null; body: { text: string; html: string } | null };

export async function getMail(id: string): Promise<TMailView | null> {
  const mail = await db.mailMessage.findUnique({ where: { id } });
  if (!mail) return null;
  const { bodyCiphertext, error, ...summary } = mail;
  const body = bodyCiphertext
    ? (JSON.parse(openSecret(bodyCiphertext, outboxBodyPurpose(id), getWebhooksEnv().secretKey)) as {
        text: string;
        html: string;
      })
    : null;
  return { ...summary, error, body };
}
