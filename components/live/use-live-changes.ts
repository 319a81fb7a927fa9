"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";

import type { TChangeKind } from "@/lib/events/change";

import {
  createLiveConnection,
  matchesFilter,
  type TLiveConnection,
  type TLiveEvent,
  type TLiveFilter,
} from "./live-connection";

export type { TLiveEvent, TLiveFilter } from "./live-connection";

let connection: TLiveConnection | undefined;

function getConnection(): TLiveConnection {
  connection ??= createLiveConnection({
    url: "/api/events",
    createEventSource: (url) => new EventSource(url),
  });
  return connection;
}

/**
 * Calls `onChange` when the server reports a change matching `filter` (a kind, and optionally
 * one id), and on `resync` (the stream was down: changes may have been missed). Every hook in
 * the tab shares one EventSource.
 */
export function useLiveChanges(filter: TLiveFilter, onChange: (event: TLiveEvent) => void): void {
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  // As a string, so a new array with the same kinds (a literal in render) does not resubscribe.
  const kinds = filter.kinds.join(",");
  const { id } = filter;
  useEffect(() => {
    const current: TLiveFilter = { kinds: kinds.split(",") as TChangeKind[], id };
    return getConnection().subscribe((event) => {
      if (matchesFilter(event, current)) onChangeRef.current(event);
    });
  }, [kinds, id]);
}

/** Whether the live stream is connected; false on the server and while it reconnects. */
export function useIsLive(): boolean {
  return useSyncExternalStore(
    (listener) => getConnection().onStatusChange(listener),
    () => getConnection().isOpen(),
    () => false,
  );
}
