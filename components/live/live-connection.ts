import { type TChange, type TChangeKind, ZChange } from "@/lib/events/change";

// The browser side of /api/events: one EventSource per tab, shared by every component that
// listens, with reconnection when the browser gives up (a non-200 answer, e.g. after a deploy
// or a 401 while the session is renewed). Pure (EventSource and timers are injected) for tests.

export type TLiveEvent = { type: "change"; change: TChange } | { type: "resync" };
export type TLiveListener = (event: TLiveEvent) => void;
export type TLiveFilter = { kinds: readonly TChangeKind[]; id?: string };

type EventSourceLike = Pick<EventSource, "readyState" | "close" | "addEventListener">;

type ConnectionOptions = {
  url: string;
  createEventSource: (url: string) => EventSourceLike;
  // Grace period before the last listener's departure closes the stream (page navigation).
  idleCloseMs?: number;
  retryDelaysMs?: readonly number[];
  // A listener that joins a running stream (a list streamed in under a loading boundary) was
  // rendered a moment earlier: what arrived in this window may be news to it.
  replayWindowMs?: number;
  now?: () => number;
};

const replayLimit = 100;

const closedState = 2; // EventSource.CLOSED, not defined outside browsers

export function matchesFilter(event: TLiveEvent, filter: TLiveFilter): boolean {
  if (event.type === "resync") return true;
  return filter.kinds.includes(event.change.kind) && (filter.id === undefined || filter.id === event.change.id);
}

export function createLiveConnection({
  url,
  createEventSource,
  idleCloseMs = 5_000,
  retryDelaysMs = [1_000, 2_000, 5_000, 15_000, 30_000, 60_000],
  replayWindowMs = 10_000,
  now = Date.now,
}: ConnectionOptions) {
  const listeners = new Set<TLiveListener>();
  let recent: { at: number; event: TLiveEvent }[] = [];
  const statusListeners = new Set<() => void>();
  let source: EventSourceLike | null = null;
  let isOpen = false;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const recentEvents = () => {
    const since = now() - replayWindowMs;
    recent = recent.filter((entry) => entry.at >= since).slice(-replayLimit);
    return recent;
  };
  const dispatch = (event: TLiveEvent) => {
    recentEvents().push({ at: now(), event });
    for (const listener of listeners) listener(event);
  };
  const setOpen = (next: boolean) => {
    if (isOpen === next) return;
    isOpen = next;
    for (const listener of statusListeners) listener();
  };

  const connect = () => {
    const next = createEventSource(url);
    source = next;
    next.addEventListener("open", () => {
      // Changes published before this tab listened (between the server render and this open, or
      // while it was disconnected) were not sent to it: everyone reads again, once.
      dispatch({ type: "resync" });
      failures = 0;
      setOpen(true);
    });
    next.addEventListener("change", (message) => {
      const parsed = ZChange.safeParse(safeJson((message as MessageEvent<string>).data));
      if (parsed.success) dispatch({ type: "change", change: parsed.data });
    });
    next.addEventListener("resync", () => dispatch({ type: "resync" }));
    next.addEventListener("error", () => {
      setOpen(false);
      // While CONNECTING the browser retries by itself; CLOSED means it gave up.
      if (next.readyState !== closedState || source !== next) return;
      next.close();
      source = null;
      const delay = retryDelaysMs[Math.min(failures, retryDelaysMs.length - 1)]!;
      failures += 1;
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (listeners.size > 0 && !source) connect();
      }, delay);
    });
  };

  const disconnect = () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    source?.close();
    source = null;
    recent = [];
    setOpen(false);
  };

  return {
    subscribe(listener: TLiveListener): () => void {
      listeners.add(listener);
      clearTimeout(idleTimer);
      if (!source && !retryTimer) connect();
      else for (const { event } of recentEvents()) listener(event);
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => listeners.size === 0 && disconnect(), idleCloseMs);
      };
    },
    isOpen: () => isOpen,
    onStatusChange(listener: () => void): () => void {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
  };
}

export type TLiveConnection = ReturnType<typeof createLiveConnection>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
