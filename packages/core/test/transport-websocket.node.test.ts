import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { WebSocket } from "ws";
import { ManualClock } from "../../../test/support/manual-clock.js";
import { startWsTestServer } from "../../../test/support/plugins/ws-server.mjs";
import type { Diagnostic } from "../src/diagnostics.js";
import { backoffDelay, resolveBackoff } from "../src/transports/backoff.js";
import { TOKEN_REFUSED_CLOSE_CODE } from "../src/transports/bridge-token.js";
import type { TransportState } from "../src/transports/transport.js";
import {
  type WebSocketCloseInfo,
  WebSocketTransport,
  type WebSocketTransportOptions,
} from "../src/transports/websocket.js";
import { collect, nextValue, untilCount } from "./transport-support.js";

let server: Awaited<ReturnType<typeof startWsTestServer>>;
before(async () => {
  server = await startWsTestServer();
});
after(() => server.close());

let roomCounter = 0;
function open(given: WebSocketTransportOptions = {}) {
  // These tests are about one record per frame unless they ask for the default, "jsonl".
  const options: WebSocketTransportOptions = { framing: "record", ...given };
  const room = `node-${++roomCounter}`;
  const clock = new ManualClock();
  const transport = new WebSocketTransport(server.url(room), { WebSocket, clock, ...options });
  const states = collect<TransportState>(transport, "state");
  const records = collect<string>(transport, "record");
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  const opened = nextValue(transport, "state", (state) => state === "open");
  return { room, clock, transport, states, records, diagnostics, opened };
}

test("backoff: exponential from initialDelay, capped at maxDelay, jitter takes off up to its fraction", () => {
  const options = resolveBackoff({ initialDelay: 100, factor: 2, maxDelay: 1000, jitter: 0 });
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, options, () => 0.99)),
    [100, 200, 400, 800, 1000, 1000],
  );
  const jittered = resolveBackoff({ initialDelay: 100, factor: 2, maxDelay: 1000, jitter: 0.5 });
  assert.equal(
    backoffDelay(1, jittered, () => 0),
    200,
  );
  assert.equal(
    backoffDelay(1, jittered, () => 0.5),
    150,
  );
  const lowest = backoffDelay(10, jittered, () => 0.999_999);
  assert.ok(lowest > 500 && lowest < 500.001, `capped, then at most half taken off: ${lowest}`);
  assert.throws(() => resolveBackoff({ jitter: 2 }), RangeError);
  assert.throws(() => resolveBackoff({ factor: 0.5 }), RangeError);
  assert.throws(() => resolveBackoff({ initialDelay: 10, maxDelay: 5 }), RangeError);
});

test("websocket: one record per text frame both ways; records sent while connecting are flushed in order", async () => {
  const { room, transport, records, opened, states } = open();
  assert.equal(transport.state, "connecting");
  transport.send('{"n":1}');
  transport.send('{"n":2}');
  assert.equal(transport.queued, 2);
  transport.addEventListener("state", (event) => {
    if (event.value === "open") transport.send('{"sent":"at open"}');
  });
  await opened;
  transport.send('{"n":3}');
  assert.deepEqual(await server.waitForReceived(room, 4), ['{"n":1}', '{"n":2}', '{"sent":"at open"}', '{"n":3}']);
  server.send(room, ['{"a":1}', '{"b":"x\u2028y"}\n', "", '{"c":3}']);
  server.send(room, ['{"bin":"日本"}'], true);
  await untilCount(transport, "record", records, 4);
  assert.deepEqual(records, ['{"a":1}', '{"b":"x\u2028y"}', '{"c":3}', '{"bin":"日本"}'], "empty frame skipped");
  transport.close();
  assert.deepEqual(states, ["open", "closed"]);
});

test("websocket: a dropped connection reconnects with backoff; records sent during the outage arrive in order", async () => {
  const { room, transport, clock, states, opened } = open({
    reconnect: { initialDelay: 100, factor: 3, maxDelay: 10_000, jitter: 0.5 },
    random: () => 0.5,
  });
  await opened;
  const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.drop(room);
  await reconnecting;
  transport.send('{"answer":1}');
  transport.send('{"answer":2}');
  assert.deepEqual(server.received(room), [], "nothing can reach the server during the outage");
  assert.deepEqual(clock.delays, [75]);
  const reopened = nextValue(transport, "state", (state) => state === "open");
  clock.next();
  await reopened;
  assert.deepEqual(await server.waitForReceived(room, 2), ['{"answer":1}', '{"answer":2}']);
  assert.deepEqual(states, ["open", "reconnecting", "open"]);

  // The attempt counter starts again after a successful open.
  const again = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.drop(room);
  await again;
  assert.deepEqual(clock.delays, [75, 75]);
  transport.close();
});

test("websocket: the deprecated `timers` option (a clock whose `now` is optional) still times the reconnect", async () => {
  const clock = new ManualClock();
  const timers = { setTimeout: clock.setTimeout.bind(clock), clearTimeout: clock.clearTimeout.bind(clock) };
  const { room, transport, opened } = open({ clock: undefined, timers, reconnect: { initialDelay: 40, jitter: 0 } });
  await opened;
  const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.drop(room);
  await reconnecting;
  assert.deepEqual(clock.delays, [40]);
  const reopened = nextValue(transport, "state", (state) => state === "open");
  clock.advance(39);
  assert.equal(transport.state, "reconnecting");
  clock.advance(1);
  await reopened;
  transport.close();
});

test("websocket: retries of a server that is gone grow by the factor, then give up after maxAttempts", async () => {
  const clock = new ManualClock();
  // A port nothing listens on: every attempt fails. The bridge's token is in the URL: it never reaches a diagnostic.
  const gone = await startWsTestServer();
  const secret = "s3cr3t-bridge-token";
  const url = `${gone.url("nobody")}?token=${secret}`;
  await gone.close();
  const transport = new WebSocketTransport(url, {
    WebSocket,
    clock,
    reconnect: { initialDelay: 10, factor: 2, jitter: 0, maxAttempts: 3 },
  });
  const states = collect<TransportState>(transport, "state");
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  transport.send('{"queued":true}');
  for (let attempt = 0; attempt < 3; attempt++) {
    await clock.armed();
    clock.next();
  }
  if (transport.state !== "closed") await nextValue(transport, "state", (state) => state === "closed");
  assert.deepEqual(clock.delays, [10, 20, 40]);
  assert.deepEqual(states, ["reconnecting", "closed"]);
  assert.deepEqual(transport.end, { reason: "gave-up", detail: "" });
  assert.deepEqual(
    diagnostics.map((d) => d.message),
    [
      `WebSocket ${url.replace(secret, encodeURIComponent("…"))} closed; gave up after 3 reconnect attempts.`,
      "1 queued record(s) dropped: the transport closed.",
    ],
  );
  assert.ok(diagnostics.every((d) => !JSON.stringify(d).includes(secret)));
});

test("websocket: close() during an outage stops reconnecting for good; close is idempotent; later sends diagnosed", async () => {
  const { room, transport, clock, states, opened, diagnostics } = open();
  await opened;
  const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.drop(room);
  await reconnecting;
  assert.equal(clock.pending, 1);
  transport.close();
  transport.close();
  assert.equal(clock.pending, 0, "the retry timer is cancelled");
  clock.next();
  transport.send('{"late":1}');
  assert.deepEqual(states, ["open", "reconnecting", "closed"]);
  assert.deepEqual(server.connections(room), { total: 1, open: 0 });
  assert.deepEqual(
    diagnostics.map((d) => d.message),
    ["Record dropped: the WebSocket transport is closed."],
  );
});

test("websocket: a listener that closes the transport on a record gets nothing more, even from the same frame", async () => {
  const { room, transport, opened, records } = open({ framing: "jsonl" });
  await opened;
  const closed = nextValue(transport, "state", (state) => state === "closed");
  transport.addEventListener("record", () => transport.close());
  server.send(room, ['{"a":1}\n{"b":2}\n']);
  await closed;
  assert.deepEqual(records, ['{"a":1}']);
});

test("websocket: close() while connecting ends the attempt without an error", async () => {
  const { transport, states } = open();
  transport.close();
  assert.equal(transport.state, "closed");
  assert.deepEqual(states, ["closed"]);
});

test("websocket: shouldReconnect sees the close code and can end retrying (e.g. an auth refusal)", async () => {
  const seen: WebSocketCloseInfo[] = [];
  const { room, transport, opened, clock, diagnostics } = open({
    shouldReconnect: (close) => {
      seen.push(close);
      return close.code !== 4401;
    },
  });
  await opened;
  const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.closeWith(room, 4000, "restart");
  await reconnecting;
  const reopened = nextValue(transport, "state", (state) => state === "open");
  clock.next();
  await reopened;
  const closed = nextValue(transport, "state", (state) => state === "closed");
  await server.closeWith(room, 4401, "unauthorized");
  await closed;
  assert.deepEqual(seen, [
    { code: 4000, reason: "restart", wasOpen: true },
    { code: 4401, reason: "unauthorized", wasOpen: true },
  ]);
  assert.equal(clock.pending, 0);
  assert.match(diagnostics[0]?.message ?? "", /code 4401/);
});

test("websocket: by default a bridge's token refusal (4401) ends it for good, its end 'refused' with the bridge's words", async () => {
  const { room, transport, opened, clock, diagnostics } = open();
  await opened;
  // Any other close is retried.
  const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
  await server.closeWith(room, 1011, "agent restarting");
  await reconnecting;
  assert.equal(transport.end, undefined);
  const reopened = nextValue(transport, "state", (state) => state === "open");
  clock.next();
  await reopened;
  const closed = nextValue(transport, "state", (state) => state === "closed");
  await server.closeWith(room, TOKEN_REFUSED_CLOSE_CODE, "token refused");
  await closed;
  assert.deepEqual(transport.end, { reason: "refused", detail: "token refused" });
  assert.equal(clock.pending, 0, "no retry is scheduled");
  assert.match(diagnostics.at(-1)?.message ?? "", /declined to retry \(close code 4401\)/);
});

test("websocket: close() ends it with end 'closed'", async () => {
  const { transport, opened } = open();
  await opened;
  assert.equal(transport.end, undefined);
  transport.close();
  assert.deepEqual(transport.end, { reason: "closed", detail: "" });
});

test("websocket: reconnect: false closes on the first lost connection", async () => {
  const { room, transport, opened, diagnostics } = open({ reconnect: false });
  await opened;
  const closed = nextValue(transport, "state", (state) => state === "closed");
  await server.drop(room);
  await closed;
  assert.match(diagnostics[0]?.message ?? "", /reconnecting is disabled/);
});

test("websocket: the queue is bounded; overflow drops the oldest record with a diagnostic", async () => {
  const { room, transport, opened, diagnostics } = open({ maxQueue: 2 });
  transport.send("1");
  transport.send("2");
  transport.send("3");
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.excerpt, "1");
  await opened;
  assert.deepEqual(await server.waitForReceived(room, 2), ["2", "3"]);
  transport.close();
});

test("websocket: a frame over maxFrameLength is dropped with a diagnostic; the next one is delivered", async () => {
  const { room, transport, opened, records, diagnostics } = open({ maxFrameLength: 16 });
  await opened;
  server.send(room, [`{"big":"${"x".repeat(40)}"}`, '{"ok":1}']);
  await untilCount(transport, "record", records, 1);
  assert.deepEqual(records, ['{"ok":1}']);
  assert.equal(diagnostics.length, 1);
  assert.match(diagnostics[0]?.message ?? "", /maximum is 16/);
  transport.close();
});

test("websocket jsonl framing: several records per frame, a record split across frames, LF-terminated sends", async () => {
  const { room, transport, opened, records } = open({ framing: "jsonl" });
  await opened;
  transport.send('{"out":1}');
  transport.send('{"bad":\n1}');
  assert.deepEqual(await server.waitForReceived(room, 1), ['{"out":1}\n']);
  server.send(room, ['{"a":1}\n{"b":2}\r\n{"c":', '"split ', 'across frames"}\n{"d":4}\n']);
  await untilCount(transport, "record", records, 4);
  assert.deepEqual(records, ['{"a":1}', '{"b":2}', '{"c":"split across frames"}', '{"d":4}']);
  transport.close();
});

test("websocket jsonl framing: after an oversized frame, input resumes at the next line", async () => {
  const { room, transport, opened, records, diagnostics } = open({ framing: "jsonl", maxFrameLength: 20 });
  await opened;
  server.send(room, ['{"cut":"', "x".repeat(30), 'rest"}\n{"ok":1}\n', '{"ok":2}\n']);
  await untilCount(transport, "record", records, 2);
  assert.deepEqual(records, ['{"ok":1}', '{"ok":2}'], "the line the dropped frame cut is discarded whole");
  assert.equal(diagnostics.length, 1);
  transport.close();
});

test("websocket: without a WebSocket class and none global, the constructor says what to pass", () => {
  const global = globalThis as { WebSocket?: unknown };
  const saved = global.WebSocket;
  delete global.WebSocket;
  try {
    assert.throws(() => new WebSocketTransport("ws://127.0.0.1:1/"), /Pass one: \{ WebSocket \} from the "ws" package/);
  } finally {
    if (saved !== undefined) global.WebSocket = saved;
  }
});
