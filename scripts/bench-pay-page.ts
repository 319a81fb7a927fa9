// `npm run bench:pay-page`: medians of cold loads of the code and payment steps on a production server
// (`next start`, which serves scripts gzipped). JavaScript budget: the compressed scripts a step loads may be at
// most the floor + 10 kB, the floor being an empty Next.js app built in the same run from the same `node_modules`
// (scripts/bench-empty-next.ts), whose one page holds a client form posting to a server action: what any App
// Router page with a form ships, framework only. LCP goal < 1 s (an unthrottled local load, a regression signal).
// `npm run bench:lighthouse`: Lighthouse's default mobile run (simulated throttling) on both steps and on the same
// floor, medians of 5 runs (--runs); goals performance ≥ 97, accessibility 100, LCP < 2.5 s.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { Agent, request } from "undici";
import { waitForHttp } from "@/lib/cli/processes";
import { freePort } from "./bench-common";
import { buildEmptyNextApp, emptyNextFormPath } from "./bench-empty-next";

type Options = {
  baseUrl: string;
  sandboxUrl: string;
  certsDir: string;
  runs: number;
  lighthouseRuns: number;
  isLighthouse: boolean;
  /** Port of the empty Next.js app (the floor); a free one when not given. */
  floorPort: number | undefined;
  /** Where to write each Lighthouse run's full report (JSON), to see which element was the LCP and what blocked. */
  saveDir: string | undefined;
};
type Sample = { jsBytes: number; jsFiles: number; lcpMs: number };

function readOptions(args: string[]): Options {
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const baseUrl = args.find((arg) => !arg.startsWith("--"));
  if (!baseUrl)
    throw new Error(
      "Usage: npm run bench:pay-page -- <app URL> [--sandbox=URL] [--certs=DIR] [--runs=N] [--floor-port=N] [--lighthouse] [--save=DIR]",
    );
  return {
    baseUrl: baseUrl.replace(/\/$/, ""),
    sandboxUrl: value("sandbox") ?? process.env.GATEWAY_BASE_URL ?? "https://127.0.0.1:8443",
    certsDir: value("certs") ?? ".data/certs",
    runs: Number(value("runs") ?? 5),
    // Lighthouse takes about 10 s a run; its scores vary by several points from run to run here.
    lighthouseRuns: Number(value("runs") ?? 5),
    isLighthouse: args.includes("--lighthouse"),
    floorPort: value("floor-port") ? Number(value("floor-port")) : undefined,
    saveDir: value("save"),
  };
}

async function createLink(options: Options): Promise<{ linkPaymentUuid: string; tokenVerificacao: number }> {
  const file = (name: string) => readFileSync(path.join(options.certsDir, name));
  const dispatcher = new Agent({
    connect: { ca: file("ca.pem"), cert: file("merchant.pem"), key: file("merchant-key.pem") },
  });
  try {
    const response = await request(`${options.sandboxUrl}/api/v1/link-payment`, {
      method: "POST",
      dispatcher,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        nomePagador: "Bench",
        numeroInscricao: "52998224725",
        valor: 100,
        numeroParcelas: 3,
        descricao: "Bench",
        metodosPagamentosAceitos: [1, 2],
      }),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`creating a link answered ${response.statusCode}: ${text}`);
    return JSON.parse(text) as { linkPaymentUuid: string; tokenVerificacao: number };
  } finally {
    await dispatcher.close();
  }
}

// LCP as the browser reports it; the last entry before the page settles is the final candidate.
const readLcp = () =>
  new Promise<number>((resolve) => {
    let last = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) last = entry.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
    setTimeout(() => resolve(last), 500);
  });

async function measure(context: BrowserContext, url: string): Promise<Sample> {
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  page.on("requestfinished", (finished) => {
    if (finished.resourceType() === "script") scripts.push(finished.sizes().then((sizes) => sizes.responseBodySize));
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const lcpMs = await page.evaluate(readLcp);
  const sizes = await Promise.all(scripts);
  await page.close();
  return { jsBytes: sizes.reduce((sum, size) => sum + size, 0), jsFiles: sizes.length, lcpMs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measureStep(
  browser: Browser,
  url: string,
  runs: number,
  cookies: Parameters<BrowserContext["addCookies"]>[0],
): Promise<Sample> {
  const samples: Sample[] = [];
  for (let run = 0; run < runs; run++) {
    // A fresh context per run: an empty cache, as a payer opening the link for the first time.
    const context = await browser.newContext({
      viewport: { width: 412, height: 915 },
      isMobile: true,
      hasTouch: true,
      locale: "pt-BR",
    });
    await context.addCookies(cookies);
    samples.push(await measure(context, url));
    await context.close();
  }
  return {
    jsBytes: median(samples.map((s) => s.jsBytes)),
    jsFiles: median(samples.map((s) => s.jsFiles)),
    lcpMs: median(samples.map((s) => s.lcpMs)),
  };
}

const chromiumPath = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? "/usr/bin/chromium";
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const jsBudgetBytes = 10 * 1024;
const lcpGoalMs = 1000;

async function verifiedCookies(
  browser: Browser,
  url: string,
  code: number,
): Promise<Parameters<BrowserContext["addCookies"]>[0]> {
  // Verify once to get the link-scoped cookie, then measure the payment step with it.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.locator("#pay-verification-code").fill(String(code));
  await page.locator("main form button[type=submit]").click();
  await page.locator("input[name=cardNumber]").waitFor();
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

// The floor's build runs before any measured load, so its compile does not share the machine with them.
async function onEmptyNextFormPage<T>(port: number | undefined, measure: (url: string) => Promise<T>): Promise<T> {
  const emptyNext = await buildEmptyNextApp();
  try {
    const floorPort = port ?? (await freePort());
    const server = emptyNext.start(floorPort);
    try {
      const url = `http://127.0.0.1:${floorPort}${emptyNextFormPath}`;
      await waitForHttp(server, url);
      return await measure(url);
    } finally {
      await server.stop();
    }
  } finally {
    emptyNext.remove();
  }
}

const measureFloor = (browser: Browser, options: Options): Promise<Sample> =>
  onEmptyNextFormPage(options.floorPort, (url) => measureStep(browser, url, options.runs, []));

async function benchJavaScript(browser: Browser, options: Options, url: string, code: number): Promise<number> {
  const floor = await measureFloor(browser, options);
  const verifyStep = await measureStep(browser, url, options.runs, []);
  const paymentStep = await measureStep(browser, url, options.runs, await verifiedCookies(browser, url, code));
  const limit = floor.jsBytes + jsBudgetBytes;
  console.log(
    `Hosted payment page, ${options.runs} cold loads per step (medians), gzip as served by next start. JavaScript limit: floor ${kb(floor.jsBytes)} (an empty Next.js app's page with one client form, built in this run, ${floor.jsFiles} files) + ${kb(jsBudgetBytes)} = ${kb(limit)}; LCP goal < ${lcpGoalMs} ms.`,
  );
  let isOk = true;
  for (const [name, sample] of [
    ["code step", verifyStep],
    ["payment step", paymentStep],
  ] as const) {
    const verdict = sample.jsBytes <= limit && sample.lcpMs < lcpGoalMs ? "ok" : "OVER GOAL";
    if (verdict !== "ok") isOk = false;
    const difference = sample.jsBytes - floor.jsBytes;
    console.log(
      `  ${name.padEnd(13)} JavaScript ${kb(sample.jsBytes)} in ${sample.jsFiles} files, floor ${kb(floor.jsBytes)}, difference ${difference >= 0 ? "+" : ""}${kb(difference)} (limit +${kb(jsBudgetBytes)}, ${kb(limit)}), LCP ${Math.round(sample.lcpMs)} ms  ${verdict}`,
    );
  }
  return isOk ? 0 : 1;
}

const lighthouseGoals = { performance: 97, accessibility: 100, lcpMs: 2500 };

// Lighthouse's default configuration: a mobile device with simulated throttling (slow 4G, 4× CPU slowdown).
type TLighthouseSample = {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  benchmarkIndex: number;
  failing: string[];
};

type TLighthouseMedians = Omit<TLighthouseSample, "failing"> & { failing: string[]; perRun: number[] };

// Simulated throttling scales CPU-bound figures (TBT) with the machine's speed, which varies on a shared machine:
// each page runs `runs` times and the medians are what counts.
async function lighthouseMedians(
  chromePort: number,
  name: string,
  url: string,
  extraHeaders: Record<string, string> | undefined,
  runs: number,
  saveDir: string | undefined,
): Promise<TLighthouseMedians> {
  const samples: TLighthouseSample[] = [];
  let failedRuns = 0;
  while (samples.length < runs) {
    const result = await lighthouse(url, {
      port: chromePort,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(extraHeaders ? { extraHeaders } : {}),
    });
    if (!result) throw new Error("Lighthouse returned no result");
    // A run whose trace Lighthouse could not read (NO_NAVSTART, now and then here) has no score at all, not a
    // score of 0: it is run again rather than counted.
    const { runtimeError } = result.lhr;
    if (runtimeError) {
      console.log(`    ${name} run ${samples.length + 1}: Lighthouse error ${runtimeError.code}, run again`);
      if (++failedRuns > runs) throw new Error(`Lighthouse failed ${failedRuns} times: ${runtimeError.message}`);
      continue;
    }
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(
        path.join(saveDir, `${name.replaceAll(" ", "-")}-${samples.length + 1}.json`),
        JSON.stringify(result.lhr),
      );
    }
    const { categories, audits } = result.lhr;
    const ms = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    samples.push({
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcpMs: ms("largest-contentful-paint"),
      fcpMs: ms("first-contentful-paint"),
      tbtMs: ms("total-blocking-time"),
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
      failing: Object.values(audits)
        .filter((audit) => audit.scoreDisplayMode === "binary" && audit.score === 0)
        .map((audit) => audit.id),
    });
  }
  const of = (key: Exclude<keyof TLighthouseSample, "failing">) => median(samples.map((sample) => sample[key]));
  return {
    performance: of("performance"),
    accessibility: of("accessibility"),
    lcpMs: of("lcpMs"),
    fcpMs: of("fcpMs"),
    tbtMs: of("tbtMs"),
    benchmarkIndex: of("benchmarkIndex"),
    failing: [...new Set(samples.flatMap((sample) => sample.failing))],
    perRun: samples.map((sample) => sample.performance),
  };
}

const lighthouseLine = (name: string, result: TLighthouseMedians, runs: number) =>
  `  ${name.padEnd(13)} performance ${result.performance}, accessibility ${result.accessibility}, LCP ${Math.round(result.lcpMs)} ms (FCP ${Math.round(result.fcpMs)} ms, TBT ${Math.round(result.tbtMs)} ms; medians of ${runs}, performance per run ${result.perRun.join("/")}, benchmarkIndex ${Math.round(result.benchmarkIndex)})`;

// The floor: the empty Next.js app's page with one client form (as the JavaScript budget's), built in this run.
const lighthouseFloor = (chromePort: number, runs: number, saveDir: string | undefined) =>
  onEmptyNextFormPage(undefined, (url) => lighthouseMedians(chromePort, "floor", url, undefined, runs, saveDir));

async function benchLighthouse(
  browser: Browser,
  url: string,
  code: number,
  runs: number,
  saveDir: string | undefined,
): Promise<number> {
  const cookies = await verifiedCookies(browser, url, code);
  const cookieHeader = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  let isOk = true;
  try {
    const floor = await lighthouseFloor(chrome.port, runs, saveDir);
    console.log(
      `Lighthouse (default mobile config, simulated throttling); goals performance ≥ ${lighthouseGoals.performance}, accessibility ${lighthouseGoals.accessibility}, LCP < ${lighthouseGoals.lcpMs} ms:`,
    );
    console.log(lighthouseLine("floor", floor, runs));
    console.log(
      "    (an empty Next.js app's page with one client form, built in this run: what the framework scores here)",
    );
    for (const [name, extraHeaders] of [
      ["code step", undefined],
      ["payment step", { Cookie: cookieHeader }],
    ] as const) {
      const step = await lighthouseMedians(chrome.port, name, url, extraHeaders, runs, saveDir);
      const verdict =
        step.performance >= lighthouseGoals.performance &&
        step.accessibility >= lighthouseGoals.accessibility &&
        step.lcpMs < lighthouseGoals.lcpMs
          ? "ok"
          : "OVER GOAL";
      if (verdict !== "ok") isOk = false;
      console.log(
        `${lighthouseLine(name, step, runs)}  ${verdict}${step.failing.length > 0 ? `  (failing: ${step.failing.join(", ")})` : ""}`,
      );
      console.log(
        `    beside the floor: performance ${step.performance - floor.performance >= 0 ? "+" : ""}${step.performance - floor.performance}, TBT ${step.tbtMs - floor.tbtMs >= 0 ? "+" : ""}${Math.round(step.tbtMs - floor.tbtMs)} ms, LCP ${step.lcpMs - floor.lcpMs >= 0 ? "+" : ""}${Math.round(step.lcpMs - floor.lcpMs)} ms`,
      );
    }
  } finally {
    chrome.kill();
  }
  return isOk ? 0 : 1;
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const link = await createLink(options);
  const url = `${options.baseUrl}/pay/${link.linkPaymentUuid}`;
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    return options.isLighthouse
      ? await benchLighthouse(browser, url, link.tokenVerificacao, options.lighthouseRuns, options.saveDir)
      : await benchJavaScript(browser, options, url, link.tokenVerificacao);
  } finally {
    await browser.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
