import { describe } from "vitest";
import { itAppliesConcurrentArrivalsInBatches } from "./testing/arrival-batches";

describe("webhook receiver: concurrent arrivals in shared transactions (PostgreSQL)", () => {
  itAppliesConcurrentArrivalsInBatches({ isSharingCommitsExpected: true });
});
