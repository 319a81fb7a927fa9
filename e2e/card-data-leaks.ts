import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { logsDir, rootDir } from "./targets";

// Card data safety (PCI): after real card payments, the card numbers and security code are nowhere the app keeps
// things: the database, the servers' logs, the client bundles, the browser's URL and storage.

const run = promisify(execFile);
const bundlesDir = path.join(rootDir, ".next/static");

function spaced(cardNumber: string): RegExp {
  return new RegExp(cardNumber.replace(/(\d{4})(?=\d)/g, "$1[ -]?"));
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** Where any of the numbers, or the code next to a field name, is found; an empty list when nowhere. */
export async function findCardData(options: {
  cardNumbers: string[];
  securityCode: string;
  databaseUrl: string;
  page: Page;
  mustContain: string;
}): Promise<string[]> {
  const needles = [
    ...options.cardNumbers.map(spaced),
    // The code next to a field name, in JSON, form data or query form.
    new RegExp(`(codigoSeguranca|securityCode|cvv|csc)["'\\s:=]{0,6}${options.securityCode}`, "i"),
  ];
  const findIn = (label: string, text: string) =>
    needles.filter((needle) => needle.test(text)).map((needle) => `${label}: ${needle}`);

  const found: string[] = [];
  const { stdout: dump } = await run("pg_dump", ["--data-only", "--no-owner", options.databaseUrl], {
    maxBuffer: 512 * 1024 * 1024,
  });
  if (!dump.includes(options.mustContain)) found.push(`database: the dump lacks ${options.mustContain}`);
  found.push(...findIn("database", dump), ...findIn("database", dump.replaceAll(/\s/g, "")));

  const logs = filesUnder(logsDir).filter((file) => file.endsWith(".log"));
  if (logs.length === 0) found.push(`no server logs in ${logsDir}`);
  for (const file of logs) found.push(...findIn(file, readFileSync(file, "utf8")));

  const bundles = filesUnder(bundlesDir).filter((file) => /\.(js|css|json|html)$/.test(file));
  for (const file of bundles) found.push(...findIn(file, readFileSync(file, "utf8")));

  found.push(...findIn("page URL", options.page.url()));
  const storage = await options.page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  found.push(...findIn("browser storage", storage));
  return found;
}
