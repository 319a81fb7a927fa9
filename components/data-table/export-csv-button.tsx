"use client";

import { DownloadIcon, XIcon } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

const newline = 10;
const progressEveryMs = 150;

function fileNameOf(response: Response): string {
  return /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "export.csv";
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference by then.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a list's CSV (an /api/exports/* route) with the page's current URL filters. The body is read here,
 * so the person sees the rows so far (newlines counted: a field with a line break counts twice) and can cancel;
 * the chunks are saved as one Blob at the end.
 */
export function ExportCsvButton({ endpoint }: { endpoint: string }) {
  const t = useTranslations("common.export");
  const searchParams = useSearchParams();
  const [rows, setRows] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  async function download() {
    const controller = new AbortController();
    abortRef.current = controller;
    setRows(0);
    try {
      const query = searchParams.toString();
      const response = await fetch(query ? `${endpoint}?${query}` : endpoint, {
        signal: controller.signal,
        cache: "no-store",
      });
      if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
      const reader = response.body.getReader();
      const chunks: Uint8Array<ArrayBuffer>[] = [];
      let lines = 0;
      let shownAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value as Uint8Array<ArrayBuffer>);
        for (const byte of value) if (byte === newline) lines += 1;
        if (performance.now() - shownAt > progressEveryMs) {
          shownAt = performance.now();
          setRows(Math.max(0, lines - 1));
        }
      }
      saveBlob(new Blob(chunks, { type: "text/csv;charset=utf-8" }), fileNameOf(response));
      toast.success(t("done", { rows: Math.max(0, lines - 1) }));
    } catch {
      if (!controller.signal.aborted) toast.error(t("failed"));
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      setRows(null);
    }
  }

  const isBusy = rows !== null;
  return (
    <div className="flex items-center gap-2">
      <span aria-live="polite" className="text-sm text-muted-foreground tabular-nums">
        {isBusy ? t("progress", { rows }) : null}
      </span>
      {isBusy ? (
        <Button variant="ghost" size="icon" aria-label={t("cancel")} onClick={() => abortRef.current?.abort()}>
          <XIcon aria-hidden="true" />
        </Button>
      ) : null}
      <Button variant="outline" disabled={isBusy} onClick={() => void download()}>
        {isBusy ? <Spinner /> : <DownloadIcon aria-hidden="true" />}
        {t("button")}
      </Button>
    </div>
  );
}
