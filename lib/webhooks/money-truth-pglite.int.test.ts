import { afterAll, beforeAll, describe } from "vitest";
import { useEmbeddedDefaultDatabase } from "@/lib/testing/pglite";
import { itKeepsTheMirrorOnTheGatewaysWord } from "./testing/money-truth";

describe("the gateway is the truth: webhooks, refresh and reconciliation (embedded PGlite, the default)", () => {
  let embedded: { close: () => Promise<void> };
  beforeAll(async () => {
    embedded = await useEmbeddedDefaultDatabase();
  });
  afterAll(async () => {
    await embedded?.close();
  });
  itKeepsTheMirrorOnTheGatewaysWord();
});
