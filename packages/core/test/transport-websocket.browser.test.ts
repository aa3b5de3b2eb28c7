import { expect } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import { ManualClock } from "../../../test/support/manual-clock.js";
import type { Diagnostic } from "../src/diagnostics.js";
import type { TransportState } from "../src/transports/transport.js";
import { WebSocketTransport, type WebSocketTransportOptions } from "../src/transports/websocket.js";
import { collect, nextValue, untilCount } from "./transport-support.js";

// The browser's own WebSocket against a real `ws` server on loopback (test/support/plugins/ws-server.mjs).
const server = {
  url: (room: string) => executeServerCommand<string, { room: string }>("ws-server:url", { room }),
  waitForReceived: (room: string, count: number) =>
    executeServerCommand<string[], { room: string; count: number }>("ws-server:wait-for-received", { room, count }),
  received: (room: string) => executeServerCommand<string[], { room: string }>("ws-server:received", { room }),
  connections: (room: string) =>
    executeServerCommand<{ total: number; open: number }, { room: string }>("ws-server:connections", { room }),
  drop: (room: string) => executeServerCommand<number, { room: string }>("ws-server:drop", { room }),
  send: (room: string, frames: string[]) =>
    executeServerCommand<number, { room: string; frames: string[] }>("ws-server:send", { room, frames }),
};

let roomCounter = 0;
async function connect(given: WebSocketTransportOptions = {}) {
  // These tests are about one record per frame unless they ask for the default, "jsonl".
  const options: WebSocketTransportOptions = { framing: "record", ...given };
  const room = `browser-${Date.now()}-${++roomCounter}`;
  const clock = new ManualClock();
  const transport = new WebSocketTransport(await server.url(room), { clock, ...options });
  const states = collect<TransportState>(transport, "state");
  const records = collect<string>(transport, "record");
  const diagnostics = collect<Diagnostic>(transport, "diagnostic");
  await nextValue(transport, "state", (state) => state === "open");
  return { room, clock, transport, states, records, diagnostics };
}

describe("WebSocketTransport in Chromium against a ws server", () => {
  it("exchanges one record per frame", async () => {
    const { room, transport, records } = await connect();
    transport.send('{"type":"get_state","id":"1"}');
    expect(await server.waitForReceived(room, 1)).to.deep.equal(['{"type":"get_state","id":"1"}']);
    await server.send(room, ['{"type":"response","id":"1"}', '{"type":"agent_start"}']);
    await untilCount(transport, "record", records, 2);
    expect(records).to.deep.equal(['{"type":"response","id":"1"}', '{"type":"agent_start"}']);
    transport.close();
  });

  it("survives a dropped connection: answers sent during the outage arrive in order after the reconnect", async () => {
    const { room, transport, clock, states } = await connect({ reconnect: { initialDelay: 250, jitter: 0 } });
    transport.send('{"before":true}');
    await server.waitForReceived(room, 1);

    const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
    await server.drop(room);
    await reconnecting;
    transport.send('{"type":"extension_ui_response","id":"a","value":"x"}');
    transport.send('{"type":"extension_ui_response","id":"b","confirmed":true}');
    transport.send('{"type":"extension_ui_response","id":"c","cancelled":true}');
    expect(transport.queued).to.equal(3);
    expect(clock.delays).to.deep.equal([250]);

    const reopened = nextValue(transport, "state", (state) => state === "open");
    clock.next();
    await reopened;
    expect(await server.waitForReceived(room, 4)).to.deep.equal([
      '{"before":true}',
      '{"type":"extension_ui_response","id":"a","value":"x"}',
      '{"type":"extension_ui_response","id":"b","confirmed":true}',
      '{"type":"extension_ui_response","id":"c","cancelled":true}',
    ]);
    expect(states).to.deep.equal(["open", "reconnecting", "open"]);
    expect(await server.connections(room)).to.deep.equal({ total: 2, open: 1 });
    transport.close();
    expect(states).to.deep.equal(["open", "reconnecting", "open", "closed"]);
  });

  it("observes its states in order from the first attempt: connecting, open, reconnecting, open, closed", async () => {
    const room = `browser-states-${Date.now()}`;
    const clock = new ManualClock();
    const transport = new WebSocketTransport(await server.url(room), { clock });
    expect(transport.state).to.equal("connecting");
    const states = collect<TransportState>(transport, "state");
    await nextValue(transport, "state", (state) => state === "open");
    const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
    await server.drop(room);
    await reconnecting;
    const reopened = nextValue(transport, "state", (state) => state === "open");
    clock.next();
    await reopened;
    transport.close();
    expect(states).to.deep.equal(["open", "reconnecting", "open", "closed"]);
  });

  it("close() during an outage stops reconnecting", async () => {
    const { room, transport, clock, states } = await connect();
    const reconnecting = nextValue(transport, "state", (state) => state === "reconnecting");
    await server.drop(room);
    await reconnecting;
    transport.close();
    expect(clock.pending).to.equal(0);
    clock.next();
    transport.send('{"late":true}');
    expect(transport.state).to.equal("closed");
    expect(states).to.deep.equal(["open", "reconnecting", "closed"]);
    expect(await server.connections(room)).to.deep.equal({ total: 1, open: 0 });
  });

  it("jsonl framing: several records in one frame, a record split across frames, LF-terminated sends", async () => {
    const { room, transport, records } = await connect({ framing: "jsonl" });
    transport.send('{"type":"prompt","message":"hi"}');
    expect(await server.waitForReceived(room, 1)).to.deep.equal(['{"type":"prompt","message":"hi"}\n']);
    await server.send(room, [
      '{"type":"agent_start"}\n{"type":"turn_start"}\n{"type":"message_update","text":"日',
      "本\u2028語",
      '"}\n{"type":"agent_end"}\n',
    ]);
    await untilCount(transport, "record", records, 4);
    expect(records).to.deep.equal([
      '{"type":"agent_start"}',
      '{"type":"turn_start"}',
      '{"type":"message_update","text":"日本\u2028語"}',
      '{"type":"agent_end"}',
    ]);
    transport.close();
  });

  it("drops a frame bigger than maxFrameLength with a diagnostic and keeps going", async () => {
    const { room, transport, records, diagnostics } = await connect({ maxFrameLength: 64 });
    await server.send(room, [JSON.stringify({ big: "x".repeat(100) }), '{"small":1}']);
    await untilCount(transport, "record", records, 1);
    expect(records).to.deep.equal(['{"small":1}']);
    expect(diagnostics.map((d) => d.code)).to.deep.equal(["transport"]);
    transport.close();
  });
});
