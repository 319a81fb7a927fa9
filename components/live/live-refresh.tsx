"use client";

import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { createRefreshScheduler } from "./refresh-scheduler";
import { type TLiveFilter, useLiveChanges } from "./use-live-changes";

type RefreshTarget = { queryKey: QueryKey } | "router";

/**
 * Reads data again when a matching change arrives: TanStack queries under `queryKey` are
 * invalidated, or, for server-rendered pages, `router.refresh()` renders them again (keeping
 * client state such as open dialogs and form input).
 */
export function useLiveRefresh(filter: TLiveFilter, target: RefreshTarget): void {
  const router = useRouter();
  const queryClient = useQueryClient();
  const refreshRef = useRef(() => {});
  useEffect(() => {
    refreshRef.current =
      target === "router"
        ? () => router.refresh()
        : () => void queryClient.invalidateQueries({ queryKey: target.queryKey });
  });
  const [scheduler] = useState(() =>
    createRefreshScheduler({
      refresh: () => refreshRef.current(),
      isHidden: () => document.visibilityState === "hidden",
    }),
  );
  useEffect(() => {
    const onVisibilityChange = () => document.visibilityState === "visible" && scheduler.onVisible();
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      document.removeEventListener("visibilitychange", onVisibilityChange);
      scheduler.dispose();
    };
  }, [scheduler]);
  useLiveChanges(filter, () => scheduler.request());
}

type LiveRefreshProps = TLiveFilter & { queryKey?: QueryKey };

/** Drop into a server-rendered page (or beside a query) to keep it current; renders nothing. */
export function LiveRefresh({ kinds, id, queryKey }: LiveRefreshProps) {
  useLiveRefresh({ kinds, id }, queryKey ? { queryKey } : "router");
  return null;
}
