/**
 * The soak (issue #9): 200 clients at once connecting, sending and leaving for a minute (BRIDGE_SOAK_MS to change
 * it) against a fake agent that bursts, the bridge in its own process (see support/soak.ts). Nothing lost, exactly
 * one answer per dialog, nothing leaked. Its figures (RSS growth, event-loop delay) are recorded by
 * `pnpm bench bridge`; here they are only printed, since they depend on the machine's load.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { runSoak } from "./support/soak.js";

const MIB = 1024 * 1024;
/** RSS may stay this much above where it started: freed memory is not always returned to the system at once. */
export const SOAK_RSS_MARGIN = 64 * MIB;
/** The JavaScript heap, after garbage collection, must come back within this much: what would be a leak. */
export const SOAK_HEAP_MARGIN = 8 * MIB;

it("200 clients coming and going for a minute: nothing lost, one answer per dialog, nothing leaked", {
  timeout: 180_000,
}, async (t) => {
  const durationMs = Number(process.env.BRIDGE_SOAK_MS ?? 60_000);
  const result = await runSoak({ durationMs, clients: 200 });
  const mb = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;
  t.diagnostic(
    `${result.clientSessions} sessions, ${result.dialogs} dialogs; RSS ${mb(result.before.rss)} -> ${mb(result.after.rss)} MB, ` +
      `heap ${mb(result.before.heapUsed)} -> ${mb(result.after.heapUsed)} MB; event-loop delay p99 ${result.during.delayP99Ms.toFixed(1)} ms`,
  );
  assert.ok(result.clientSessions >= 200, `${result.clientSessions} sessions`);
  assert.equal(result.refused, 0);
  assert.equal(result.commandsConfirmed, result.commandsSent, "every command reached the agent");
  assert.ok(result.dialogs > 0);
  assert.deepEqual(
    result.answersPerDialog.filter((count) => count !== 1),
    [],
    "each dialog answered exactly once at the agent",
  );
  assert.equal(result.after.clients, 0, "every connection is gone");
  assert.equal(result.after.agentPid, result.before.agentPid, "the same agent throughout");
  assert.ok(result.after.heapUsed - result.before.heapUsed < SOAK_HEAP_MARGIN, "heap back within its margin");
  assert.ok(result.after.rss - result.before.rss < SOAK_RSS_MARGIN, "RSS back within its margin");
});
