import { afterAll, beforeAll, describe } from "vitest";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { itAppliesConcurrentArrivalsInBatches } from "./testing/arrival-batches";

describe("webhook receiver: concurrent arrivals in shared transactions (embedded PGlite, the default)", () => {
  let embedded: { close: () => Promise<void> };
  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
  });
  itAppliesConcurrentArrivalsInBatches({ isSharingCommitsExpected: false });
});
