import { z } from "zod";
import { defineEnvConcern } from "./define-env";

export const mailEnvConcern = defineEnvConcern("mail", {
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })
    .optional()
    .describe(
      "SMTP server that sends the dashboard's e-mail, e.g. smtps://user:password@smtp.example.com:465 (smtp:// upgrades with STARTTLS when offered). Unset: messages go to the outbox in the database, readable by admins at /settings/outbox (the demo).",
    ),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3)
    .max(200)
    .default("Payments Dashboard <no-reply@localhost>")
    .describe('Sender of the dashboard\'s e-mail, e.g. "Loja <no-reply@example.com>"; defaults to no-reply@localhost.'),
});
