import { describe } from "vitest";
import { itKeepsTheMirrorOnTheGatewaysWord } from "./testing/money-truth";

describe("the gateway is the truth: webhooks, refresh and reconciliation (PostgreSQL)", () => {
  itKeepsTheMirrorOnTheGatewaysWord();
});
