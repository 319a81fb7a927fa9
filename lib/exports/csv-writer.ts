import { stringify } from "csv-stringify/sync";

// The CSV writer of every export (docs/exports.md): `;` between fields and CRLF line ends, for Excel in pt-BR.

const csvDelimiter = ";";

// OWASP's CSV injection rule: a cell starting with = + - @, a tab or a CR is run as a formula by spreadsheets, so it
// is prefixed with an apostrophe and reads as text. Applied here to every text cell whatever its source (a name, a
// header value a webhook sender chose, an id), so no column can forget it. A plain number ("-1.234,56", a negative
// amount in either locale) is left alone and stays a number.
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

/** The CSV lines of `rows`, each ending with CRLF; numbers are written as they are. */
export function csvLines(rows: (string | number)[][]): string {
  return stringify(rows, csvOptions);
}
