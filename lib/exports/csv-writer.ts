import { stringify } from "csv-stringify/sync";

// `;` between fields and CRLF line ends, for Excel in pt-BR (docs/exports.md).
const csvDelimiter = ";";

// OWASP CSV injection: a text cell starting with = + - @, tab or CR gets an apostrophe so spreadsheets don't run it;
// applied to every text cell so no column can forget it. A plain number ("-1.234,56") stays a number.
const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^-?\d[\d.,]*$/;

export function neutralizeFormula(value: string): string {
  return formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value;
}

const csvOptions = {
  delimiter: csvDelimiter,
  record_delimiter: "windows",
  cast: { string: neutralizeFormula },
} as const;

export function csvLines(rows: (string | number)[][]): string {
  return stringify(rows, csvOptions);
}
