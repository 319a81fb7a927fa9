import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { PayPage } from "./pages/pay-page";
import { expect, test } from "./pay-gateway";
import { logsDir, rootDir } from "./targets";

const run = promisify(execFile);

// Card data safety (PCI): after a real card payment through the hosted page, the card
// number and security code are nowhere the app keeps things: the database, the server logs, the
// client bundles. A test card with a security code unlikely to occur by chance in context.
const cardNumber = "5555555555554444";
const refusedCardNumber = "4000000000009995";
const securityCode = "8312";
const bundlesDir = path.join(rootDir, ".next/static");

function needles(): RegExp[] {
  return [
    new RegExp(cardNumber),
    /5555[ -]?5555[ -]?5555[ -]?4444/,
    /4000[ -]?0000[ -]?0000[ -]?9995/,
    // The code next to a field name, in JSON, form data or query form.
    new RegExp(`(codigoSeguranca|securityCode|cvv|csc)["'\\s:=]{0,6}${securityCode}`, "i"),
  ];
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function findIn(label: string, text: string): string[] {
  return needles()
    .filter((needle) => needle.test(text))
    .map((needle) => `${label}: ${needle}`);
}

test("[PAY] card number and security code are in no database row, log line or client bundle", async ({
  page,
  links,
  databaseUrl,
}) => {
  const link = await links.createLink({ valor: 77.7, numeroParcelas: 2 });
  const pay = new PayPage(page);
  await pay.goto(link.linkPaymentUuid);
  await pay.verify(link.tokenVerificacao);
  // A refused attempt too: its error path must be as clean as the success path.
  await pay.payByCard({ number: refusedCardNumber, securityCode });
  await expect(page.getByText("O pagamento não foi aprovado.", { exact: false })).toBeVisible();
  await pay.chooseInstallments(2);
  await pay.payByCard({ number: cardNumber, securityCode });
  await pay.expectPaid();

  const found: string[] = [];
  expect(databaseUrl, "the PostgreSQL database of the app under test").toBeTruthy();
  const { stdout: dump } = await run("pg_dump", ["--data-only", "--no-owner", databaseUrl!], {
    maxBuffer: 512 * 1024 * 1024,
  });
  expect(dump).toContain(link.linkPaymentUuid);
  found.push(...findIn("database", dump), ...findIn("database", dump.replaceAll(/\s/g, "")));

  const logs = filesUnder(logsDir).filter((file) => file.endsWith(".log"));
  expect(logs.length, `server logs in ${logsDir}`).toBeGreaterThan(0);
  for (const file of logs) found.push(...findIn(file, readFileSync(file, "utf8")));

  const bundles = filesUnder(bundlesDir).filter((file) => /\.(js|css|json|html)$/.test(file));
  for (const file of bundles) found.push(...findIn(file, readFileSync(file, "utf8")));

  // The page itself keeps nothing: no card data in the URL, cookies or storage.
  expect(page.url()).not.toContain(cardNumber);
  const storage = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  found.push(...findIn("browser storage", storage));

  expect(found).toEqual([]);
});
