export type TCardBrand = "visa" | "mastercard" | "elo" | "amex" | "hipercard" | "diners" | "discover" | "jcb";

// `bandeiraCartao` codes are "not shown" in the spec: our choice, documented in sandbox/README.md.
export const BANDEIRA_CARTAO_BY_BRAND: Readonly<Record<TCardBrand, string>> = {
  visa: "1",
  mastercard: "2",
  amex: "3",
  elo: "4",
  hipercard: "5",
  diners: "6",
  discover: "7",
  jcb: "8",
};

export const CARD_BRAND_NAMES: Readonly<Record<TCardBrand, string>> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  elo: "Elo",
  hipercard: "Hipercard",
  diners: "Diners Club",
  discover: "Discover",
  jcb: "JCB",
};

export function brandFromBandeiraCartao(code: string): TCardBrand | null {
  const entry = Object.entries(BANDEIRA_CARTAO_BY_BRAND).find(([, value]) => value === code);
  return entry ? (entry[0] as TCardBrand) : null;
}

const CARD_NUMBER_PATTERN = /^\d{12,19}$/;

export function passesLuhn(cardNumber: string): boolean {
  if (!CARD_NUMBER_PATTERN.test(cardNumber)) return false;
  let sum = 0;
  for (let index = 0; index < cardNumber.length; index++) {
    let digit = Number(cardNumber[cardNumber.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

type BinRange = readonly [from: number, to: number];

// Elo issues inside ranges that would otherwise read as Visa, Mastercard or Discover, so it is checked first.
const ELO_BIN6_RANGES: readonly BinRange[] = [
  [401178, 401179],
  [431274, 431274],
  [438935, 438935],
  [451416, 451416],
  [457393, 457393],
  [457631, 457632],
  [504175, 504175],
  [506699, 506778],
  [509000, 509999],
  [627780, 627780],
  [636297, 636297],
  [636368, 636368],
  [650031, 650033],
  [650035, 650051],
  [650405, 650439],
  [650485, 650538],
  [650541, 650598],
  [650700, 650718],
  [650720, 650727],
  [650901, 650978],
  [651652, 651679],
  [655000, 655019],
  [655021, 655058],
];
const HIPERCARD_BIN6_RANGES: readonly BinRange[] = [
  [606282, 606282],
  [384100, 384100],
  [384140, 384140],
  [384160, 384160],
];

const inRanges = (bin6: number, ranges: readonly BinRange[]) => ranges.some(([from, to]) => bin6 >= from && bin6 <= to);

// Ordered: the first match wins, so narrower ranges come before the broad prefixes they overlap.
const BRAND_RULES: readonly { brand: TCardBrand; matches: (bin6: number) => boolean }[] = [
  { brand: "elo", matches: (bin6) => inRanges(bin6, ELO_BIN6_RANGES) },
  { brand: "hipercard", matches: (bin6) => inRanges(bin6, HIPERCARD_BIN6_RANGES) },
  { brand: "amex", matches: (bin6) => [34, 37].includes(Math.floor(bin6 / 10_000)) },
  { brand: "jcb", matches: (bin6) => bin6 >= 352_800 && bin6 <= 358_999 },
  {
    brand: "diners",
    matches: (bin6) =>
      [36, 38].includes(Math.floor(bin6 / 10_000)) ||
      (bin6 >= 300_000 && bin6 <= 305_999) ||
      Math.floor(bin6 / 1000) === 309,
  },
  {
    brand: "discover",
    matches: (bin6) =>
      Math.floor(bin6 / 100) === 6011 || (bin6 >= 644_000 && bin6 <= 659_999) || (bin6 >= 622_126 && bin6 <= 622_925),
  },
  {
    brand: "mastercard",
    matches: (bin6) => (bin6 >= 510_000 && bin6 <= 559_999) || (bin6 >= 222_100 && bin6 <= 272_099),
  },
  { brand: "visa", matches: (bin6) => Math.floor(bin6 / 100_000) === 4 },
];

export function detectCardBrand(cardNumber: string): { brand: TCardBrand; bandeiraCartao: string } | null {
  if (!CARD_NUMBER_PATTERN.test(cardNumber)) return null;
  const bin6 = Number(cardNumber.slice(0, 6));
  const rule = BRAND_RULES.find(({ matches }) => matches(bin6));
  return rule ? { brand: rule.brand, bandeiraCartao: BANDEIRA_CARTAO_BY_BRAND[rule.brand] } : null;
}

export function cardBin(cardNumber: string): string {
  return cardNumber.slice(0, 6);
}

// The last four digits: the only part of the number that may be shown or kept besides the BIN.
export function maskCardNumber(cardNumber: string): string {
  return cardNumber.slice(-4);
}

const EXPIRY_PATTERN = /^(0[1-9]|1[0-2])\/(\d{2})$/;

export function isCardExpiryValid(expiry: string, now: Date = new Date()): boolean {
  const match = EXPIRY_PATTERN.exec(expiry);
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year > currentYear || (year === currentYear && month >= currentMonth);
}

export function isCardExpiryFormat(expiry: string): boolean {
  return EXPIRY_PATTERN.test(expiry);
}
