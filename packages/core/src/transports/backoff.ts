/**
 * When to try again after a failure: exponential backoff with jitter, for a lost connection (the WebSocket
 * transport) or an agent process that exited (the bridge's restarts). Many clients dropped by one server restart
 * do not all come back in the same instant, and a process that dies at once is not respawned in a tight loop. The
 * delay for attempt n (0-based) is `min(maxDelay, initialDelay * factor^n)`, then scaled by a random factor in
 * `[1 - jitter, 1]`. A run (an open connection, a started process) that lasted `resetAfter` starts the count again.
 */
export interface BackoffOptions {
  /** Delay before the first retry, in ms. Default 500. */
  initialDelay?: number;
  /** Ceiling for any delay, in ms. Default 30 000. */
  maxDelay?: number;
  /** Growth per attempt. Default 2. */
  factor?: number;
  /** Fraction of the delay that is randomized, 0 (none) to 1 (full jitter). Default 0.5. */
  jitter?: number;
  /** Retries after a connection is lost (or fails) before giving up; Infinity never gives up. Default Infinity. */
  maxAttempts?: number;
  /**
   * How long a run must last, in ms, for its end to count as a fresh failure rather than part of a series: the
   * next delay is `initialDelay` again. Default 0: any run that started at all (a connection that opened).
   */
  resetAfter?: number;
}

export type ResolvedBackoff = Required<BackoffOptions>;

export function resolveBackoff(options: BackoffOptions = {}): ResolvedBackoff {
  const resolved = {
    initialDelay: options.initialDelay ?? 500,
    maxDelay: options.maxDelay ?? 30_000,
    factor: options.factor ?? 2,
    jitter: options.jitter ?? 0.5,
    maxAttempts: options.maxAttempts ?? Number.POSITIVE_INFINITY,
    resetAfter: options.resetAfter ?? 0,
  };
  if (!(resolved.initialDelay >= 0)) throw new RangeError("backoff initialDelay must be >= 0");
  if (!(resolved.maxDelay >= resolved.initialDelay)) throw new RangeError("backoff maxDelay must be >= initialDelay");
  if (!(resolved.factor >= 1)) throw new RangeError("backoff factor must be >= 1");
  if (!(resolved.jitter >= 0 && resolved.jitter <= 1)) throw new RangeError("backoff jitter must be within 0..1");
  if (!(resolved.maxAttempts >= 0)) throw new RangeError("backoff maxAttempts must be >= 0");
  if (!(resolved.resetAfter >= 0)) throw new RangeError("backoff resetAfter must be >= 0");
  return resolved;
}

/** The delay before retry number `attempt` (0-based); `random` returns a number in [0, 1). */
export function backoffDelay(attempt: number, options: ResolvedBackoff, random: () => number): number {
  const base = Math.min(options.maxDelay, options.initialDelay * options.factor ** attempt);
  return base * (1 - options.jitter * random());
}

/** The retry count of one thing that runs and fails (a connection, a process), with `BackoffOptions`' rules. */
export class Backoff {
  readonly options: ResolvedBackoff;
  readonly #random: () => number;
  #attempt = 0;
  #runningSince: number | undefined;

  /** Throws a RangeError for options out of range. `random` returns [0, 1), for the jitter. */
  constructor(options: BackoffOptions = {}, random: () => number = Math.random) {
    this.options = resolveBackoff(options);
    this.#random = random;
  }

  /** Retries counted since the last reset. */
  get attempts(): number {
    return this.#attempt;
  }

  /** Records that a run started (a connection opened, a process was spawned) at time `now`, in ms. */
  started(now: number): void {
    this.#runningSince = now;
  }

  /** The delay before the next try, after a run ended or a try failed at time `now`; undefined: give up. */
  next(now: number): number | undefined {
    if (this.#runningSince !== undefined && now - this.#runningSince >= this.options.resetAfter) this.#attempt = 0;
    this.#runningSince = undefined;
    if (this.#attempt >= this.options.maxAttempts) return undefined;
    const delay = backoffDelay(this.#attempt, this.options, this.#random);
    this.#attempt += 1;
    return delay;
  }
}
