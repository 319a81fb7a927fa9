// Just enough MIME for the messages nodemailer writes (mailparser is not installed): headers with RFC 2047 encoded
// words, a multipart/alternative body, and parts in quoted-printable, base64, 7bit or 8bit.

export type TParsedMail = { to: string; subject: string; text: string; html: string };

function decodeQuotedPrintable(value: string): Buffer {
  const soft = value.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let index = 0; index < soft.length; index += 1) {
    const hex = soft.slice(index + 1, index + 3);
    if (soft[index] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(soft[index]!, "utf8"));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body).toString("utf8");
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_match, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")).toString("utf8"),
    );
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? "" : raw.slice(end).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function parameterOf(header: string, name: string): string | undefined {
  return new RegExp(`${name}="?([^";]+)"?`, "i").exec(header)?.[1];
}

export function parseMail(raw: string): TParsedMail {
  const { headers, body } = splitHeaders(raw);
  const parsed: TParsedMail = {
    to: decodeWords(headers.get("to") ?? ""),
    subject: decodeWords(headers.get("subject") ?? ""),
    text: "",
    html: "",
  };
  const contentType = headers.get("content-type") ?? "text/plain";
  const boundary = parameterOf(contentType, "boundary");
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((part) => !part.startsWith("--"))
        .map((part) => splitHeaders(part.replace(/^\r?\n/, "")))
    : [{ headers, body }];
  for (const part of parts) {
    const type = part.headers.get("content-type") ?? "text/plain";
    const text = decodeBody(part.body.replace(/\r?\n$/, ""), part.headers.get("content-transfer-encoding") ?? "7bit");
    if (type.startsWith("text/html")) parsed.html = text;
    else if (type.startsWith("text/plain")) parsed.text = text;
  }
  return parsed;
}
