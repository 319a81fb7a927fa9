import { expect, vi } from "vitest";
import { getDatabaseConnection } from "@/lib/db/client";
import { createChangeHub, publishChange } from "@/lib/events/bus";
import type { TChangeKind } from "@/lib/events/change";

// Listens on the test's database for changes of one kind, as the live stream would, and collects their ids.
export async function listenForChanges(kind: TChangeKind) {
  const hub = createChangeHub(getDatabaseConnection());
  const ids: string[] = [];
  hub.subscribe((event) => {
    if (event.type === "change" && event.change.kind === kind) ids.push(event.change.id);
  });
  await hub.ready();
  return {
    // The ids heard for `id` once every change committed so far has arrived (they arrive in commit order).
    async heardOf(id: string): Promise<string[]> {
      const marker = `marker-${crypto.randomUUID()}`;
      await publishChange({ kind, id: marker });
      await vi.waitFor(() => expect(ids).toContain(marker), { timeout: 5_000, interval: 20 });
      return ids.filter((heard) => heard === id);
    },
    close: () => hub.close(),
  };
}
