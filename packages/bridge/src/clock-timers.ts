/**
 * The bridge's timers all run on one `Clock` (the core's shape: `now`, `setTimeout`, `clearTimeout`), the one given
 * to `startBridge` (real time by default), so that a test drives restarts, pings, token pacing, refusal bounds and
 * dialog deadlines alike. What Node needs beyond that shape lives here.
 */
import type { Clock } from "@pi-elements/core";

/**
 * Arms `fn` on `clock` so that it does not keep the process alive on its own: with the real clock the handle is
 * Node's `Timeout`, which is unref'd; a test's clock has nothing to unref.
 */
export function backgroundTimeout(clock: Clock, fn: () => void, ms: number): unknown {
  const handle = clock.setTimeout(fn, ms);
  (handle as { unref?: () => void } | null | undefined)?.unref?.();
  return handle;
}

/**
 * Runs `fn` every `ms` on `clock` (a timeout armed again after each run, the clock's shape having no interval)
 * until the returned function stops it.
 */
export function repeat(clock: Clock, fn: () => void, ms: number): () => void {
  let handle: unknown;
  let stopped = false;
  const arm = () => {
    handle = backgroundTimeout(
      clock,
      () => {
        if (stopped) return;
        try {
          fn();
        } finally {
          if (!stopped) arm();
        }
      },
      ms,
    );
  };
  arm();
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}
