// Turns a burst of changes (a reconciliation healing fifty charges) into few refreshes: the
// first runs at once, later ones at most once per `minIntervalMs`; while the tab is hidden the
// refresh waits until it is visible again.
type SchedulerOptions = {
  refresh: () => void;
  minIntervalMs?: number;
  isHidden?: () => boolean;
  now?: () => number;
};

export function createRefreshScheduler({
  refresh,
  minIntervalMs = 1_000,
  isHidden = () => false,
  now = Date.now,
}: SchedulerOptions) {
  let lastRunAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let isPendingWhileHidden = false;

  const run = () => {
    timer = undefined;
    if (isHidden()) {
      isPendingWhileHidden = true;
      return;
    }
    lastRunAt = now();
    refresh();
  };

  const request = () => {
    if (timer) return;
    const wait = lastRunAt + minIntervalMs - now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };

  return {
    request,
    onVisible() {
      if (!isPendingWhileHidden) return;
      isPendingWhileHidden = false;
      request();
    },
    dispose() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
