import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRefreshScheduler } from "./refresh-scheduler";

describe("createRefreshScheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("refreshes at once, then folds a burst into one trailing refresh", () => {
    const refresh = vi.fn();
    const scheduler = createRefreshScheduler({ refresh, minIntervalMs: 1_000 });
    scheduler.request();
    expect(refresh).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i += 1) scheduler.request();
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("holds a refresh while the tab is hidden and runs it when visible", () => {
    const refresh = vi.fn();
    let isHidden = true;
    const scheduler = createRefreshScheduler({ refresh, isHidden: () => isHidden });
    scheduler.request();
    expect(refresh).not.toHaveBeenCalled();
    isHidden = false;
    scheduler.onVisible();
    expect(refresh).toHaveBeenCalledTimes(1);
    scheduler.onVisible();
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
