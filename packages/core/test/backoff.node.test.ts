import assert from "node:assert/strict";
import { test } from "node:test";
import { Backoff } from "../src/index.js";

test("Backoff: a run shorter than resetAfter continues the series; a longer one starts it again", () => {
  const backoff = new Backoff({ initialDelay: 10, maxDelay: 40, jitter: 0, resetAfter: 1000 });
  const delays: Array<number | undefined> = [];
  for (const start of [0, 100, 200, 300]) {
    backoff.started(start);
    delays.push(backoff.next(start + 50));
  }
  assert.deepEqual(delays, [10, 20, 40, 40], "short runs: doubling up to maxDelay");
  backoff.started(5000);
  assert.equal(backoff.next(6000), 10, "a run of resetAfter: back to initialDelay");
});

test("Backoff: failed tries (no run in between) keep counting; maxAttempts ends the series", () => {
  const backoff = new Backoff({ initialDelay: 1, jitter: 0, maxAttempts: 2 });
  assert.equal(backoff.next(0), 1);
  assert.equal(backoff.next(100), 2, "resetAfter 0 resets only after a run that started");
  assert.equal(backoff.next(200), undefined);
  assert.equal(backoff.attempts, 2);
  backoff.started(300);
  assert.equal(backoff.next(300), 1, "an open connection (resetAfter 0) starts the count again");
});

test("Backoff: options out of range throw", () => {
  assert.throws(() => new Backoff({ resetAfter: -1 }), RangeError);
  assert.throws(() => new Backoff({ jitter: 2 }), RangeError);
});
