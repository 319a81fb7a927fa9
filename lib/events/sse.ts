import "server-only";
import type { TChange, TChangeEvent, TChangeListener } from "./bus";

const heartbeatIntervalMs = 15_000;
// A stream ends after this long and the browser reconnects, authorizing again: a signed-out user stops hearing by then.
const streamLifetimeMs = 10 * 60_000;
const reconnectDelayMs = 2_000;

type StreamOptions = {
  subscribe: (listener: TChangeListener) => () => void;
  signal: AbortSignal;
  // Which changes this stream's user may hear of; every change when absent.
  mayHear?: (change: TChange) => boolean;
  heartbeatMs?: number;
  lifetimeMs?: number;
};

function formatEvent(event: TChangeEvent): string {
  return event.type === "change"
    ? `event: change\ndata: ${JSON.stringify(event.change)}\n\n`
    : "event: resync\ndata: {}\n\n";
}

// The heartbeat comment keeps proxies from closing an idle connection.
export function createChangeStream({
  subscribe,
  signal,
  mayHear = () => true,
  heartbeatMs = heartbeatIntervalMs,
  lifetimeMs = streamLifetimeMs,
}: StreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // `shouldClose` is false when the reader cancelled: the stream is closed already.
  let stop = (_shouldClose: boolean) => {};

  return new ReadableStream<Uint8Array>({
    start(controller) {
      let isOpen = true;
      const send = (text: string) => {
        if (isOpen) controller.enqueue(encoder.encode(text));
      };
      const unsubscribe = subscribe((event) => {
        if (event.type === "resync" || mayHear(event.change)) send(formatEvent(event));
      });
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      const end = () => stop(true);
      const lifetime = setTimeout(end, lifetimeMs);
      stop = (shouldClose) => {
        if (!isOpen) return;
        isOpen = false;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(lifetime);
        signal.removeEventListener("abort", end);
        if (shouldClose) controller.close();
      };
      signal.addEventListener("abort", end);
      send(`retry: ${reconnectDelayMs}\n: connected\n\n`);
      if (signal.aborted) end();
    },
    cancel() {
      stop(false);
    },
  });
}
