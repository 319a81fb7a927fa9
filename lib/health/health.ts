import "server-only";
import { readSql } from "@/lib/db/read-replica";
import type { TSqlRunner } from "@/lib/db/sql";
import { getGatewayCertificateReport } from "@/lib/gateway/certificate";
import { listJobsForAdmin, type TJobAdminRow } from "@/lib/jobs/admin";
import { readCardRefusals } from "./card-refusals";
import { readGatewayCallSeries, readGatewayCallSummaries, type TGatewayCallSummary } from "./gateway-call-minutes";

// Everything here is read from the database (the certificate from the configuration), so every instance shows the same.

const hourMs = 3_600_000;

type TWebhookEndpointHealth = {
  webhookId: string | null;
  url: string | null;
  received: number;
  applied: number;
  failed: number;
  refused: number;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
};

type TRefusalRate = { attempts: number; refused: number; rate: number | null };

export type THealthReport = {
  since: Date;
  gateway: Array<TGatewayCallSummary & { operation: string }>;
  gatewaySeries: Array<TGatewayCallSummary & { at: Date }>;
  webhooks: TWebhookEndpointHealth[];
  jobs: TJobAdminRow[];
  certificateDaysLeft: number | null;
  refusals: { day: TRefusalRate; week: TRefusalRate };
  drift: { found: number; healed: number; open: number };
};

// Lag runs from the gateway's signed timestamp (X-Webhook-Timestamp, unix seconds) to the delivery being applied.
const webhookSql = `
SELECT d."webhookId"::text AS "webhookId", w.url,
       count(*)::int AS received,
       count(*) FILTER (WHERE d.outcome IN ('APPLIED', 'DUPLICATE', 'IGNORED'))::int AS applied,
       count(*) FILTER (WHERE d.outcome = 'FAILED')::int AS failed,
       count(*) FILTER (WHERE d.outcome IN ('REJECTED_SIGNATURE', 'STALE'))::int AS refused,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY d.lag))::int AS "lagP50Ms",
       round(percentile_cont(0.99) WITHIN GROUP (ORDER BY d.lag))::int AS "lagP99Ms"
  FROM (SELECT x.*, CASE WHEN x."appliedAt" IS NOT NULL AND x."timestampHeader" ~ '^[0-9]{1,12}$'
                         THEN greatest(0, extract(epoch FROM x."appliedAt") * 1000 - x."timestampHeader"::bigint * 1000)
                    END AS lag
          FROM "WebhookDelivery" x
         WHERE x."receivedAt" >= ($1::timestamptz AT TIME ZONE 'UTC')) d
  LEFT JOIN "Webhook" w ON w.id = d."webhookId"
 GROUP BY d."webhookId", w.url
 ORDER BY received DESC`;

const driftSql = `
SELECT count(*)::int AS found,
       count(*) FILTER (WHERE d."healedAt" IS NOT NULL)::int AS healed,
       (SELECT count(*)::int FROM "MirrorDrift" o WHERE o."healedAt" IS NULL) AS open
  FROM "MirrorDrift" d
 WHERE d."detectedAt" >= ($1::timestamptz AT TIME ZONE 'UTC')`;

async function readRefusalRate(run: TSqlRunner, since: Date): Promise<TRefusalRate> {
  const { attempts, refused } = await readCardRefusals({ since }, run);
  return { attempts, refused, rate: attempts === 0 ? null : refused / attempts };
}

function readCertificateDaysLeft(now: Date): number | null {
  const report = getGatewayCertificateReport(now);
  return report.ok ? report.certificate.daysUntilExpiry : null;
}

export async function readHealthReport(now = new Date()): Promise<THealthReport> {
  const since = new Date(now.getTime() - 24 * hourMs);
  const gateway = await readGatewayCallSummaries({ since, until: now });
  const gatewaySeries = await readGatewayCallSeries({ since, until: now, stepMinutes: 60 });
  const run = await readSql();
  const webhooks = await run<TWebhookEndpointHealth>(webhookSql, [since.toISOString()]);
  const { jobs } = await listJobsForAdmin(now);
  const day = await readRefusalRate(run, since);
  const week = await readRefusalRate(run, new Date(now.getTime() - 7 * 24 * hourMs));
  const [drift] = await run<THealthReport["drift"]>(driftSql, [since.toISOString()]);
  return {
    since,
    gateway,
    gatewaySeries,
    webhooks,
    jobs,
    certificateDaysLeft: readCertificateDaysLeft(now),
    refusals: { day, week },
    drift: drift ?? { found: 0, healed: 0, open: 0 },
  };
}
