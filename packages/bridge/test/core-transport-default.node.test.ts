/**
 * The core's WebSocketTransport with no options but the WebSocket class speaks the bridge's framing (JSONL): records
 * the bridge sends several to a frame arrive one by one, as records, with no diagnostic.
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Diagnostic, type WebSocketConstructorLike, WebSocketTransport } from "@pi-elements/core";
import { WebSocket } from "ws";
import { waitFor } from "../../../test/support/wait-for.js";
import { startFakeBridge, TestClient } from "./support/harness.js";

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
});
