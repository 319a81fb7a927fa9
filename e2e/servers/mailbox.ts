// `tsx e2e/servers/mailbox.ts`: a real SMTP server on loopback that keeps every message it receives, started by
// Playwright's webServer before the apps (whose SMTP_URL points here). Tests read the messages over HTTP:
// GET /messages?to=<address> answers them parsed, oldest first (e2e/mailbox.ts).
import { createServer } from "node:http";
import { SMTPServer } from "smtp-server";
import { parseMail, type TParsedMail } from "../mail-parse";
import { mailboxPorts } from "../targets";

type TStoredMail = TParsedMail & { recipients: string[]; receivedAt: string };

const messages: TStoredMail[] = [];
const ports = mailboxPorts();

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["AUTH", "STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
      messages.push({
        ...parseMail(Buffer.concat(chunks).toString("utf8")),
        recipients,
        receivedAt: new Date().toISOString(),
      });
      callback();
    });
  },
});

const http = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://mailbox.invalid");
  if (url.pathname === "/health") {
    response.end("ok");
    return;
  }
  if (url.pathname !== "/messages") {
    response.statusCode = 404;
    response.end();
    return;
  }
  const to = url.searchParams.get("to")?.toLowerCase();
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify(to ? messages.filter((mail) => mail.recipients.includes(to)) : messages));
});

smtp.listen(ports.smtp, "127.0.0.1");
http.listen(ports.http, "127.0.0.1");

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    http.close();
    smtp.close(() => process.exit(0));
  });
}
