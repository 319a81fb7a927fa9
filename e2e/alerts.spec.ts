import { mailTo, type TReceivedMail } from "./mailbox";
import { NewPixChargePage } from "./pages/new-pix-charge-page";
import { expect, test } from "./sandbox-control";

// The gateway alert end to end: the sandbox fails and slows one charge's reads, the evaluator (every 2 s in e2e)
// opens an incident, the bell shows it and the admin gets one mail; the fault ends, one "resolved" mail follows.

test.use({ role: "admin" });

async function waitForSubject(address: string, subject: string): Promise<TReceivedMail> {
  let found: TReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailTo(address)).find((mail) => mail.subject === subject);
        return Boolean(found);
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(true);
  return found!;
}

test("[ALERTS] a failing, slow gateway raises the alert in the bell and by e-mail once, and its end sends resolved", async ({
  page,
  sandbox,
  admin,
}) => {
  test.setTimeout(240_000);
  const rule = "Taxa de erro do gateway";

  // Tuned in the rules page for a short run: half of at least 5 calls, so a few healthy reads resolve it.
  await page.goto("/alerts/rules");
  const card = page.getByRole("region", { name: rule });
  // Muted for the other specs (e2e/servers/app.ts): a muted rule opens nothing until it is unmuted.
  await expect(card.getByText("Silenciada até reativar")).toBeVisible();
  await card.getByLabel("Silenciar", { exact: true }).selectOption("off");
  await expect(page.getByText("Silenciamento alterado.")).toBeVisible();
  await expect(card.getByText("Silenciada até reativar")).toHaveCount(0);
  await card.getByRole("spinbutton", { name: "Taxa de erro acima de (%)" }).fill("500");
  await card.getByRole("button", { name: "Salvar" }).click();
  await expect(card.getByRole("spinbutton", { name: "Taxa de erro acima de (%)" })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await card.getByRole("spinbutton", { name: "Taxa de erro acima de (%)" }).fill("50");
  await card.getByRole("spinbutton", { name: "Só com pelo menos (chamadas)" }).fill("5");
  await card.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByText("Regra salva.")).toBeVisible();
  await expect(card.getByText("Personalizada")).toBeVisible();

  const txid = await new NewPixChargePage(page).create({ amount: "12,34" });
  const bell = page.getByRole("button", { name: /^Alertas/ });
  await expect(bell).toHaveAttribute("data-unread", "0");
  const alreadyMailed = (await mailTo(admin.email)).length;

  await sandbox.setFaults({ failureStatus: 503, latencyMs: 200, pathPrefix: `/api/v1/pix-charges/${txid}` });
  const faultAt = Date.now();
  for (let index = 0; index < 6; index += 1) {
    await page.request.get(`/api/pix/charges/${txid}?refresh=1`);
  }

  await expect(bell).toHaveAttribute("data-unread", "1", { timeout: 90_000 });
  const bellMs = Date.now() - faultAt;
  await expect(bell).toHaveAccessibleName("Alertas, 1 não lido");
  const opened = await waitForSubject(admin.email, `Alerta: ${rule}`);
  const mailMs = Date.parse(opened.receivedAt) - faultAt;
  expect(opened.text).toContain("pix-charges.get");
  expect(opened.text).toContain("/alerts?incident=");

  await bell.click();
  const menu = page.getByRole("menu");
  await expect(menu.getByText(rule)).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(bell).toHaveAttribute("data-unread", "0");

  await sandbox.clearFaults();
  const clearedAt = Date.now();
  for (let index = 0; index < 20; index += 1) {
    expect((await page.request.get(`/api/pix/charges/${txid}?refresh=1`)).ok()).toBe(true);
  }
  const resolved = await waitForSubject(admin.email, `Resolvido: ${rule}`);
  const resolvedMs = Date.parse(resolved.receivedAt) - clearedAt;

  await page.goto("/alerts");
  const resolvedList = page.getByRole("list", { name: "Resolvidos recentemente" });
  await expect(resolvedList.getByText(rule)).toBeVisible();
  await expect(resolvedList.getByText("Resolvido", { exact: true })).toBeVisible();
  await expect(page.getByText("Nada de errado agora.")).toBeVisible();

  // Once per incident: one mail when it opened, one when it resolved, nothing while it stayed open.
  const alertMails = (await mailTo(admin.email)).slice(alreadyMailed).filter((mail) => mail.subject.endsWith(rule));
  expect(alertMails.map((mail) => mail.subject)).toEqual([`Alerta: ${rule}`, `Resolvido: ${rule}`]);

  await page.goto("/alerts/rules");
  const tuned = page.getByRole("region", { name: rule });
  await tuned.getByRole("button", { name: "Restaurar padrões" }).click();
  await expect(page.getByText("Padrões restaurados.")).toBeVisible();
  await tuned.getByLabel("Silenciar", { exact: true }).selectOption("forever");
  await expect(tuned.getByText("Silenciada até reativar")).toBeVisible();

  const figure = `fault→bell ${bellMs} ms, fault→e-mail ${mailMs} ms, fault end→resolved e-mail ${resolvedMs} ms`;
  console.log(`alert latency: ${figure}`);
  test.info().annotations.push({ type: "alert latency", description: figure });
});

test("[ALERTS] the bell polls only while the live stream is down: connected, it reads again when told", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const asked: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/alerts") asked.push(request.url());
  });
  const stream = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/events");
  await page.goto("/alerts/rules");
  expect((await stream).status()).toBe(200);
  const bell = page.getByRole("button", { name: /^Alertas/ });
  await expect(bell).toHaveAttribute("data-unread", /^\d+$/);
  const afterLoad = asked.length;
  // Longer than the 15 s the bell waits between polls when it has no stream.
  await page.waitForTimeout(17_000);
  expect(asked).toHaveLength(afterLoad);

  // Without the stream, the bell falls back to asking every 15 s.
  await page.route("**/api/events**", (route) => route.abort());
  await page.reload();
  await expect(bell).toHaveAttribute("data-unread", /^\d+$/);
  const beforeWait = asked.length;
  await expect.poll(() => asked.length, { timeout: 20_000 }).toBeGreaterThan(beforeWait);
});
