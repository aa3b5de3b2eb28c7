/**
 * The core's WebSocketTransport with no options but the WebSocket class speaks the bridge's framing (JSONL): records
 * the bridge sends several to a frame arrive one by one, as records, with no diagnostic. And it stops for good when
 * the bridge refuses its token (a page opened with the address of a bridge that has since restarted), saying so, while
 * a bridge that is merely gone is retried.
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Diagnostic,
  PiSession,
  type TransportState,
  type WebSocketConstructorLike,
  WebSocketTransport,
} from "@pi-elements/core";
import { WebSocket } from "ws";
import { ManualClock } from "../../../test/support/manual-clock.js";
import { waitFor } from "../../../test/support/wait-for.js";
import { startFakeBridge, TestClient, withToken } from "./support/harness.js";

describe("the core's WebSocketTransport by default, through the bridge", () => {
  it("gets the records of a multi-record frame as records, not diagnostics", async () => {
    const bridge = await startFakeBridge();
    const watcher = await TestClient.connect(bridge.url);
    const transport = new WebSocketTransport(bridge.url, {
      WebSocket: WebSocket as unknown as WebSocketConstructorLike,
      reconnect: false,
    });
    try {
      const records: string[] = [];
      const diagnostics: Diagnostic[] = [];
      transport.addEventListener("record", (event) => records.push(event.value));
      transport.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
      await waitFor(() => records.some((record) => record.includes('"pi-elements/hello"')), {
        message: "the bridge's hello through the default transport",
      });
      const emitted = [1, 2, 3].map((n) => ({ type: "framing_probe", n }));
      // The fake agent writes the three lines in one write; the bridge relays them as one frame.
      transport.send(JSON.stringify({ type: "prompt", message: `!emit ${JSON.stringify(emitted)}` }));
      // Only the probes themselves: the fake agent's "received" echo of the command quotes them too, and may share a frame.
      const isProbe = (line: string) => line.startsWith('{"type":"framing_probe"');
      const probes = () => records.filter(isProbe);
      await waitFor(() => records.some((record) => record.includes('"n":3')) || diagnostics.length > 0, {
        message: "the last probe record",
        detail: () => JSON.stringify({ records, diagnostics }),
      });
      // The frame really carried all three (so one record per frame would have been the wrong reading of it).
      const frame = await waitFor(() => watcher.frames.find((text) => text.includes('"n":3')), {
        message: "the watcher's frame with the probes",
      });
      assert.equal(frame.split("\n").filter(isProbe).length, 3, frame);
      assert.deepEqual(
        probes().map((record) => JSON.parse(record)),
        emitted,
      );
      assert.deepEqual(diagnostics, []);
    } finally {
      transport.close();
      await watcher.close();
      await bridge.close();
    }
  });

  it("stops for good when the bridge refuses its token: no retry, the session's snapshot says 'refused'", async () => {
    const bridge = await startFakeBridge();
    const clock = new ManualClock();
    // A page opened with the address of a bridge that restarted since: a token this bridge never gave.
    const transport = new WebSocketTransport(withToken(bridge.url, "token-of-an-earlier-run"), {
      WebSocket: WebSocket as unknown as WebSocketConstructorLike,
      clock,
    });
    const session = new PiSession(transport);
    const states: TransportState[] = [];
    transport.addEventListener("state", (event) => states.push(event.value));
    try {
      await waitFor(() => transport.state === "closed", {
        message: "the transport closed after the refusal",
        detail: () => `states so far: ${states.join(", ")}`,
      });
      // The handshake completes only for the close to be read (a refused handshake is a bare 1006): open, then closed.
      assert.deepEqual(states, ["open", "closed"], "never reconnecting");
      assert.equal(clock.pending, 0, "no retry scheduled");
      assert.deepEqual(session.ui.getSnapshot().connectionEnd, {
        reason: "refused",
        detail: "token refused: open the address pi-bridge printed",
      });
    } finally {
      session.close();
      await bridge.close();
    }
  });

  it("goes on retrying a bridge that is down: reconnecting, no end", async () => {
    const bridge = await startFakeBridge();
    const clock = new ManualClock();
    const transport = new WebSocketTransport(withToken(bridge.url, bridge.token), {
      WebSocket: WebSocket as unknown as WebSocketConstructorLike,
      clock,
    });
    try {
      await waitFor(() => transport.state === "open", { message: "connected", detail: () => transport.state });
      await bridge.close();
      await waitFor(() => transport.state === "reconnecting", {
        message: "reconnecting",
        detail: () => transport.state,
      });
      await clock.armed();
      clock.next();
      await waitFor(() => clock.pending === 1 && transport.state === "reconnecting", {
        message: "a second retry scheduled after the next attempt failed",
        detail: () => `${transport.state}, ${clock.pending} pending`,
      });
      assert.equal(transport.end, undefined);
    } finally {
      transport.close();
    }
  });
});
