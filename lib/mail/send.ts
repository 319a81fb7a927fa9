import "server-only";
import { randomUUID } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { serverEnv } from "@/lib/config/server-env";
import { getWebhooksEnv } from "@/lib/config/webhooks-env";
import { sealSecret } from "@/lib/crypto/secret-box";
import { assertNoOpenTransaction, db } from "@/lib/db/client";
import type { MailStatus, MailTransport } from "@/lib/generated/prisma/client";
import { resolveLocale } from "@/lib/i18n/config";
import { log } from "@/lib/log";
import type { TMailParams, TMailTemplateName } from "./templates";

export type TMailRequest<TName extends TMailTemplateName> = {
  to: string;
  template: TName;
  params: TMailParams<TName>;
  locale: string;
};

export const outboxBodyPurpose = (mailId: string) => `mail-outbox:${mailId}`;

let smtp: { url: string; transporter: Transporter } | undefined;

function smtpTransporter(url: string): Transporter {
  if (smtp?.url !== url) smtp = { url, transporter: nodemailer.createTransport(url) };
  return smtp.transporter;
}

// Never throws and never runs inside a transaction: the user's change is already committed, and a mail server that
// is down must not undo it. The outcome is recorded (without the body, unless it is the outbox) and logged without
// the address or the body.
export async function sendMail<TName extends TMailTemplateName>(request: TMailRequest<TName>): Promise<MailStatus> {
  assertNoOpenTransaction("sendMail");
  const id = randomUUID();
  const locale = resolveLocale(request.locale);
  let transport: MailTransport = "OUTBOX";
  let status: MailStatus = "FAILED";
  let error: string | null = null;
  let bodyCiphertext: string | null = null;
  let subject = request.template as string;
  try {
    // Loaded on first send: next-intl's server build cannot load in the plain Node processes (the CLI, the e2e seed)
    // that import the users module but never mail.
    const { renderMail } = await import("./templates");
    const mail = renderMail(request.template, request.params, locale);
    subject = mail.subject;
    if (serverEnv.SMTP_URL) {
      transport = "SMTP";
      await smtpTransporter(serverEnv.SMTP_URL).sendMail({
        from: serverEnv.MAIL_FROM,
        to: request.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    } else {
      bodyCiphertext = sealSecret(
        JSON.stringify({ text: mail.text, html: mail.html }),
        outboxBodyPurpose(id),
        getWebhooksEnv().secretKey,
      );
    }
    status = "SENT";
  } catch (failure) {
    error = (failure instanceof Error ? failure.message : String(failure)).slice(0, 300);
    log.error({ mailId: id, template: request.template, transport, error }, "mail: sending failed");
  }
  try {
    await db.mailMessage.create({
      data: {
        id,
        to: request.to,
        template: request.template,
        locale,
        subject,
        transport,
        status,
        error,
        bodyCiphertext,
      },
    });
  } catch (failure) {
    log.error({ err: failure, mailId: id, template: request.template }, "mail: could not record the message");
  }
  log.info({ mailId: id, template: request.template, transport, status }, "mail");
  return status;
}
