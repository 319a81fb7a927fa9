import "server-only";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { db, getDatabaseConnection, sessionUrl, type TDatabaseConnection } from "@/lib/db/client";
import { hasReadReplica, waitForReplicaToCatchUp } from "@/lib/db/read-replica";
import type { Prisma } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { withSpan } from "@/lib/telemetry/tracing";
import { type TChange, ZChange } from "./change";

export type { TChange } from "./change";

export const changeChannel = "app_changes";

type SqlClient = Pick<Prisma.TransactionClient, "$executeRaw">;

// Pass the change's transaction: NOTIFY is delivered at commit and dropped on rollback, so browsers read committed rows.
export function publishChange(change: TChange, client: SqlClient = db): Promise<void> {
  return withSpan("live update publish", { "change.kind": change.kind }, async () => {
    await client.$executeRaw`SELECT pg_notify(${changeChannel}, ${changePayload(change)})`;
  });
}

// For SQL that calls pg_notify on `changeChannel` itself; same rules as publishChange.
export function changePayload(change: TChange): string {
  return JSON.stringify(ZChange.parse(change));
}

// "resync": the listening connection came back after a drop and notifications sent meanwhile are lost.
export type TChangeEvent = { type: "change"; change: TChange } | { type: "resync" };
export type TChangeListener = (event: TChangeEvent) => void;

export type TChangeHub = {
  subscribe: (listener: TChangeListener) => () => void;
  ready: () => Promise<void>;
  close: () => Promise<void>;
};

const reconnectDelaysMs = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

type Listening = { ready: Promise<void>; stop: () => Promise<void> };

function listenOnPglite(pglite: PGlite, onPayload: (payload: string) => void): Listening {
  const unlisten = pglite.listen(changeChannel, onPayload);
  return {
    ready: unlisten.then(() => undefined),
    stop: async () => {
      const stopListening = await unlisten.catch(() => null);
      if (stopListening && !pglite.closed) await stopListening();
    },
  };
}

// Outside Prisma's pool, and past a transaction-pooling pooler (sessionUrl): a pooled connection would be handed
// to other queries and lose its LISTEN.
function listenOnPostgres(url: string, onPayload: (payload: string) => void, onResync: () => void): Listening {
  let client: pg.Client | null = null;
  let isStopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, application_name: "app_changes_listener" });
    next.on("notification", (message) => {
      if (message.channel === changeChannel && message.payload) onPayload(message.payload);
    });
    next.on("error", (error) => log.warn({ err: error }, "change bus: listening connection failed"));
    next.on("end", () => {
      if (client !== next) return;
      client = null;
      if (!isStopped) scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${changeChannel}`);
    } catch (error) {
      log.warn({ err: error, attempt }, "change bus: could not listen, retrying");
      await next.end().catch(() => {});
      scheduleReconnect();
      return;
    }
    if (isStopped) return void (await next.end().catch(() => {}));
    client = next;
    if (attempt > 0) onResync();
    attempt = 0;
    markReady();
  };

  const scheduleReconnect = () => {
    if (timer || isStopped) return;
    const delay = reconnectDelaysMs[Math.min(attempt, reconnectDelaysMs.length - 1)]!;
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    timer.unref();
  };

  void connect();
  return {
    ready,
    stop: async () => {
      isStopped = true;
      clearTimeout(timer);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}

/** `beforeEmit` is awaited before events are passed on; those arriving meanwhile wait with them, in order. */
export function createChangeHub(
  connection: TDatabaseConnection,
  options: { beforeEmit?: () => Promise<unknown> } = {},
): TChangeHub {
  const listeners = new Set<TChangeListener>();
  const emitNow = (event: TChangeEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log.error({ err: error }, "change bus: listener failed");
      }
    }
  };
  let held: TChangeEvent[] = [];
  let isReleasing = false;
  const release = async (beforeEmit: () => Promise<unknown>) => {
    isReleasing = true;
    while (held.length > 0) {
      const batch = held;
      held = [];
      await beforeEmit().catch((error: unknown) =>
        log.warn({ err: error }, "change bus: the wait before emitting failed"),
      );
      for (const event of batch) emitNow(event);
    }
    isReleasing = false;
  };
  const { beforeEmit } = options;
  const emit = (event: TChangeEvent) => {
    if (!beforeEmit) return emitNow(event);
    held.push(event);
    if (!isReleasing) void release(beforeEmit);
  };
  const onPayload = (payload: string) => {
    let parsed: ReturnType<typeof ZChange.safeParse>;
    try {
      parsed = ZChange.safeParse(JSON.parse(payload));
    } catch {
      return void log.warn({ payload }, "change bus: ignored a notification that is not JSON");
    }
    if (parsed.success) emit({ type: "change", change: parsed.data });
    else log.warn({ payload }, "change bus: ignored an unknown notification");
  };

  let listening: Listening | undefined;
  const start = (): Listening => {
    listening ??=
      connection.kind === "pglite"
        ? listenOnPglite(connection.pglite, onPayload)
        : listenOnPostgres(sessionUrl(connection), onPayload, () => emit({ type: "resync" }));
    return listening;
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      start().ready.catch((error: unknown) => log.error({ err: error }, "change bus: could not start listening"));
      return () => void listeners.delete(listener);
    },
    ready: () => start().ready,
    close: async () => {
      listeners.clear();
      const current = listening;
      listening = undefined;
      await current?.stop();
    },
  };
}

// One hub per process, kept across dev reloads like the database client.
const cache = globalThis as typeof globalThis & { __paymentsChangeHub?: TChangeHub };

const replicaCatchUpTimeoutMs = 10_000;

function getChangeHub(): TChangeHub {
  cache.__paymentsChangeHub ??= createChangeHub(getDatabaseConnection(), {
    beforeEmit: hasReadReplica()
      ? async () => {
          if (!(await waitForReplicaToCatchUp(replicaCatchUpTimeoutMs)))
            log.warn(
              { timeoutMs: replicaCatchUpTimeoutMs },
              "change bus: passed changes on before the replica had them",
            );
        }
      : undefined,
  });
  return cache.__paymentsChangeHub;
}

export function subscribeChanges(listener: TChangeListener): () => void {
  return getChangeHub().subscribe(listener);
}

export async function closeChangeBus(): Promise<void> {
  const hub = cache.__paymentsChangeHub;
  cache.__paymentsChangeHub = undefined;
  await hub?.close();
}
