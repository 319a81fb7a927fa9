import { describe, expect, it, vi } from "vitest";

vi.mock("./client", () => ({}));

describe("prepared statement names", () => {
  it("depend only on the text, so copies of the module in separate chunks agree on one connection", async () => {
    const first = await import("./sql");
    vi.resetModules();
    const second = await import("./sql");
    expect(second).not.toBe(first);
    // Each copy meets the statements in another order, as two route chunks would.
    const a = "SELECT 1 WHERE $1::text = 'a'";
    const b = "SELECT 2 WHERE $1::text = 'b'";
    const fromFirst = [first.statementName(a), first.statementName(b)];
    const fromSecond = [second.statementName(b), second.statementName(a)].reverse();
    expect(fromSecond).toEqual(fromFirst);
    expect(fromFirst[0]).not.toBe(fromFirst[1]);
    expect(fromFirst[0]!.length).toBeLessThanOrEqual(63);
  });
});
