/**
 * When to try again after a lost connection: exponential backoff with jitter, so that many clients dropped by
 * one server restart do not all come back in the same instant. The delay for attempt n (0-based) is
 * `min(maxDelay, initialDelay * factor^n)`, then scaled by a random factor in `[1 - jitter, 1]`.
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
}

export type ResolvedBackoff = Required<BackoffOptions>;

export function resolveBackoff(options: BackoffOptions = {}): ResolvedBackoff {
  const resolved = {
    initialDelay: options.initialDelay ?? 500,
    maxDelay: options.maxDelay ?? 30_000,
    factor: options.factor ?? 2,
    jitter: options.jitter ?? 0.5,
    maxAttempts: options.maxAttempts ?? Number.POSITIVE_INFINITY,
  };
  if (!(resolved.initialDelay >= 0)) throw new RangeError("reconnect.initialDelay must be >= 0");
  if (!(resolved.maxDelay >= resolved.initialDelay)) throw new RangeError("reconnect.maxDelay must be >= initialDelay");
  if (!(resolved.factor >= 1)) throw new RangeError("reconnect.factor must be >= 1");
  if (!(resolved.jitter >= 0 && resolved.jitter <= 1)) throw new RangeError("reconnect.jitter must be within 0..1");
  if (!(resolved.maxAttempts >= 0)) throw new RangeError("reconnect.maxAttempts must be >= 0");
  return resolved;
}

/** The delay before retry number `attempt` (0-based); `random` returns a number in [0, 1). */
export function backoffDelay(attempt: number, options: ResolvedBackoff, random: () => number): number {
  const base = Math.min(options.maxDelay, options.initialDelay * options.factor ** attempt);
  return base * (1 - options.jitter * random());
}
