import "server-only";
import { recordAudit } from "@/lib/audit/audit-log";
import { readRequestContext } from "@/lib/auth/request-context";
import type { TCurrentUser } from "@/lib/auth/session-user";
import { localeCookieName, resolveLocale, type TLocale } from "@/lib/i18n/config";
import { log } from "@/lib/log";
import { csvLines } from "./csv-writer";
import { cellFormat, exportMessages, formatExportDateTime } from "./format";
import { exportLists, type TExportKind } from "./registry";

// Streamed CSV (docs/exports.md), one keyset batch at a time so memory stays flat whatever the size.

const exportBatchSize = 1000;
const bom = "\uFEFF";

function readCookie(request: Request, name: string): string | undefined {
  for (const part of request.headers.get("cookie")?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

// As the pages: the language cookie decides (set from the saved preference at sign-in), then the saved one.
function exportLocale(request: Request, user: TCurrentUser): TLocale {
  return resolveLocale(readCookie(request, localeCookieName) ?? user.locale);
}

function fileNameOf(baseName: string, now: Date): string {
  const [day, month, year] = formatExportDateTime(now, "pt-BR").slice(0, 10).split("/");
  return `${baseName}-${year}-${month}-${day}.csv`;
}

export type TExportOptions = { batchSize?: number };

export function exportCsvResponse(
  kind: TExportKind,
  request: Request,
  user: TCurrentUser,
  options: TExportOptions = {},
): Response {
  const list = exportLists[kind];
  const filters = list.readFilters(new URL(request.url).searchParams);
  const locale = exportLocale(request, user);
  const headerLabels = exportMessages[locale].exportColumns[kind] as Record<string, string>;
  const header = list.columnKeys.map((key) => headerLabels[key] ?? key);
  const batches = list.batches(filters, cellFormat(locale, user), options.batchSize ?? exportBatchSize);
  const context = readRequestContext(request.headers);
  const encoder = new TextEncoder();
  let rows = 0;
  let audited = false;

  // One entry per export, written when it ends: finished, cancelled by the reader, or failed.
  const audit = async (completed: boolean) => {
    if (audited) return;
    audited = true;
    try {
      await recordAudit({
        actor: { id: user.id, email: user.email },
        action: "export.downloaded",
        resourceType: "export",
        resourceId: kind,
        ip: context.ip,
        userAgent: context.userAgent,
        metadata: { list: kind, filters: filters as Record<string, string | number>, rows, completed },
      });
    } catch (error) {
      log.error({ err: error, kind }, "export audit entry failed");
    }
  };

  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(bom + csvLines([header])));
      },
      // Called when the reader wants more: one batch is read from the database per call (backpressure).
      async pull(controller) {
        try {
          const next = await batches.next();
          if (next.done) {
            await audit(true);
            controller.close();
            return;
          }
          rows += next.value.length;
          controller.enqueue(encoder.encode(csvLines(next.value)));
        } catch (error) {
          log.error({ err: error, kind }, "export failed");
          await audit(false);
          controller.error(error);
        }
      },
      async cancel() {
        await batches.return(undefined);
        await audit(false);
      },
    },
    { highWaterMark: 1 },
  );

  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileNameOf(list.fileName, new Date())}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
