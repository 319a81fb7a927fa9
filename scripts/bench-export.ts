// `npm run bench:export`: the Pix charges CSV export (lib/exports/csv-export.ts) over 1,000,000 charges in a
// throw-away PostgreSQL database, read to the end as a client would. Prints the time, the bytes and rows, and the
// RSS / heap used before and at their peak (sampled every 50 ms): the stream must stay flat, < 100 MB of heap growth.
// The npm script caps V8's old space at 64 MB: unbounded, V8 grows the heap lazily (400+ MB RSS on 1 M rows) though
// nothing is kept, so finishing under the cap is what shows the export holds no rows.
// The export is called after authorization (exportCsvResponse, what the route's GET runs past withAuth): the
// session check needs Next's request scope (cookies()), which a plain script does not have.
// Options: --charges=1000000 --limit-mb=100
import { runBenchmark, withBenchDatabase } from "./bench-common";

const mb = (bytes: number) => bytes / 1024 / 1024;

const seedSql = (count: number) => `
INSERT INTO "PixCharge" (txid, "amountCents", status, "creationDate", "expirationSeconds", "expiresAt", "debtorName",
  "debtorCpf", description, "userReference", raw, "syncedAt", "updatedAt")
SELECT 'bench' || lpad(n::text, 21, '0'), 100 + floor(random() * 500000)::int,
  (ARRAY['ACTIVE','PAID','EXPIRED'])[1 + floor(random() * 3)::int], c, 3600, c + interval '1 hour',
  'Cliente ' || n, lpad((n % 99999999999)::text, 11, '0'), 'Pedido ' || n, 'ref-' || n, '{}'::jsonb, now(), now()
FROM generate_series(1, ${count}) AS n, LATERAL (SELECT now() - random() * interval '300 days' AS c, n AS k) AS r`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const value = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const charges = Number(value("charges") ?? 1_000_000);
  const limitMb = Number(value("limit-mb") ?? 100);
  return withBenchDatabase("export_bench", async () => {
    const { db } = await import("@/lib/db/client");
    const { exportCsvResponse } = await import("@/lib/exports/csv-export");
    const seededAt = performance.now();
    await db.$executeRawUnsafe(seedSql(charges));
    await db.$executeRawUnsafe(`ANALYZE "PixCharge"`);
    console.log(
      `  ${charges.toLocaleString("en")} charges seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`,
    );
    const user = await db.user.create({
      data: { email: `bench-${Date.now()}@example.com`, name: "Bench", passwordHash: "x", roleId: "owner" },
    });
    const currentUser = { ...user, locale: "pt-BR" } as unknown as Parameters<typeof exportCsvResponse>[2];

    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 50);
    const startedAt = performance.now();
    const request = new Request("http://127.0.0.1/api/exports/pix-charges?from=2025-01-01&to=2027-12-31", {
      headers: { cookie: "NEXT_LOCALE=pt-BR" },
    });
    const response = exportCsvResponse("pixCharges", request, currentUser);
    const reader = response.body!.getReader();
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    clearInterval(sampler);
    const seconds = (performance.now() - startedAt) / 1000;
    const growth = mb(peakRss - before.rss);
    console.log(
      `  status ${response.status}; ${(lines - 1).toLocaleString("en")} rows, ${mb(bytes).toFixed(1)} MB of CSV in ${seconds.toFixed(1)} s (${(mb(bytes) / seconds).toFixed(1)} MB/s)`,
    );
    console.log(
      `  RSS before ${mb(before.rss).toFixed(1)} MB, peak ${mb(peakRss).toFixed(1)} MB (growth ${growth.toFixed(1)} MB); NODE_OPTIONS=${process.env.NODE_OPTIONS ?? "(none)"}`,
    );
    const heapGrowth = mb(peakHeap - before.heapUsed);
    console.log(
      `  heap used before ${mb(before.heapUsed).toFixed(1)} MB, peak ${mb(peakHeap).toFixed(1)} MB (growth ${heapGrowth.toFixed(1)} MB; limit ${limitMb} MB: ${heapGrowth < limitMb ? "met" : "NOT met"})`,
    );
    return heapGrowth < limitMb && lines - 1 === charges ? 0 : 1;
  });
}

runBenchmark(main);
