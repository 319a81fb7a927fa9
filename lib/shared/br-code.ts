// Pix BR Code (EMV® QRCPS as profiled by the Banco Central): ID + length + value fields, closed by a CRC16 (field 63).

export type TDynamicPixBrCodeInput = {
  payloadUrl: string;
  merchantName: string;
  merchantCity: string;
  amountCents: number;
  txid: string;
};

export type TParsedBrCode = {
  payloadFormatIndicator: string;
  pointOfInitiationMethod: string | undefined;
  gui: string | undefined;
  pixKey: string | undefined;
  payloadUrl: string | undefined;
  merchantCategoryCode: string;
  currency: string;
  amount: string | undefined;
  countryCode: string;
  merchantName: string;
  merchantCity: string;
  txid: string | undefined;
  crc: string;
  fields: Record<string, string>;
};

const pixGui = "br.gov.bcb.pix";

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF) of the ASCII text, as 4 uppercase hex digits. */
export function crc16ccitt(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i += 1) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, "0")}${value}`;
}

function toAscii(text: string, maxLength: number): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .trim()
    .slice(0, maxLength)
    .trimEnd();
}

export function buildDynamicPixBrCode(input: TDynamicPixBrCodeInput): string {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw new RangeError("amountCents must be a positive integer");
  if (!/^[A-Za-z0-9]{1,35}$/.test(input.txid)) throw new RangeError("txid must be 1 to 35 letters and digits");
  const amount = `${Math.floor(input.amountCents / 100)}.${String(input.amountCents % 100).padStart(2, "0")}`;
  const body = [
    field("00", "01"),
    field("01", "12"), // dynamic: the code points at a payload URL and is meant for one payment
    field("26", field("00", pixGui) + field("25", input.payloadUrl)),
    field("52", "0000"),
    field("53", "986"),
    field("54", amount),
    field("58", "BR"),
    field("59", toAscii(input.merchantName, 25)),
    field("60", toAscii(input.merchantCity, 15)),
    field("62", field("05", input.txid)),
  ].join("");
  const withCrcHeader = `${body}6304`;
  return withCrcHeader + crc16ccitt(withCrcHeader);
}

function parseFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let offset = 0;
  while (offset < text.length) {
    const header = text.slice(offset, offset + 4);
    if (!/^\d{4}$/.test(header)) throw new SyntaxError(`Malformed BR Code field at position ${offset}`);
    const id = header.slice(0, 2);
    const length = Number(header.slice(2));
    const value = text.slice(offset + 4, offset + 4 + length);
    if (value.length !== length) throw new SyntaxError(`BR Code field ${id} is truncated`);
    if (id in fields) throw new SyntaxError(`BR Code field ${id} is repeated`);
    fields[id] = value;
    offset += 4 + length;
  }
  return fields;
}

function required(fields: Record<string, string>, id: string): string {
  const value = fields[id];
  if (value === undefined) throw new SyntaxError(`BR Code field ${id} is missing`);
  return value;
}

export function parseBrCode(code: string): TParsedBrCode {
  const crcAt = code.length - 8;
  if (crcAt < 0 || code.slice(crcAt, crcAt + 4) !== "6304")
    throw new SyntaxError("BR Code must end with the CRC field 63");
  const fields = parseFields(code);
  const crc = required(fields, "63");
  if (crc.toUpperCase() !== crc16ccitt(code.slice(0, crcAt + 4))) throw new SyntaxError("BR Code CRC does not match");
  const account = Object.entries(fields).find(
    ([id, value]) => Number(id) >= 26 && Number(id) <= 51 && value.includes(pixGui),
  );
  const accountFields = account ? parseFields(account[1]) : {};
  const additional = fields["62"] === undefined ? {} : parseFields(fields["62"]);
  return {
    payloadFormatIndicator: required(fields, "00"),
    pointOfInitiationMethod: fields["01"],
    gui: accountFields["00"],
    pixKey: accountFields["01"],
    payloadUrl: accountFields["25"],
    merchantCategoryCode: required(fields, "52"),
    currency: required(fields, "53"),
    amount: fields["54"],
    countryCode: required(fields, "58"),
    merchantName: required(fields, "59"),
    merchantCity: required(fields, "60"),
    txid: additional["05"],
    crc,
    fields,
  };
}
