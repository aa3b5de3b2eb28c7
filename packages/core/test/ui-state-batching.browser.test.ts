import { expect } from "@open-wc/testing";
import { JsonlDecoder } from "../src/codec/jsonl.js";
import { PiSession } from "../src/session/pi-session.js";
import { createMemoryPair } from "../src/transports/memory.js";
import { FakeTransport } from "./session-fakes.js";

const statusLine = (i: number) =>
  JSON.stringify({
    type: "extension_ui_request",
    id: `s${i}`,
    method: "setStatus",
    statusKey: `k${String(i % 50).padStart(2, "0")}`,
    statusText: `\u001b[38;5;226m${i}\u001b[39m`,
  });

describe("UI store batching in Chromium", () => {
  it("a 2,000-setStatus burst in one chunk gives one subscriber call", async () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport);
    let calls = 0;
    session.ui.subscribe(() => calls++);
    const chunk = Array.from({ length: 2000 }, (_, i) => `${statusLine(i)}\n`).join("");
    const decoder = new JsonlDecoder({ onRecord: (line) => transport.receive(line) });
    decoder.push(new TextEncoder().encode(chunk));
    expect(calls).to.equal(0);
    await Promise.resolve();
    expect(calls).to.equal(1);
    const { statuses } = session.ui.getSnapshot();
    expect(statuses.length).to.equal(50);
    expect(statuses[49]?.raw).to.equal("\u001b[38;5;226m1999\u001b[39m");
  });

  it("a burst through the in-memory transport is still one call, and the snapshot is stable until the next change", async () => {
    const [agent, client] = createMemoryPair();
    const session = new PiSession(client);
    let calls = 0;
    const delivered = new Promise<void>((resolve) =>
      session.ui.subscribe(() => {
        calls++;
        resolve();
      }),
    );
    for (let i = 0; i < 2000; i++) agent.send(statusLine(i));
    await delivered;
    await Promise.resolve();
    expect(calls).to.equal(1);
    const snapshot = session.ui.getSnapshot();
    expect(session.ui.getSnapshot()).to.equal(snapshot);
    expect(snapshot.statuses.length).to.equal(50);
    session.close();
  });

  it("a schedule option can batch per animation frame instead", async () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport, { schedule: (flush) => requestAnimationFrame(flush) });
    let calls = 0;
    const frame = new Promise<void>((resolve) =>
      session.ui.subscribe(() => {
        calls++;
        resolve();
      }),
    );
    for (let i = 0; i < 2000; i++) transport.receive(statusLine(i));
    await Promise.resolve();
    expect(calls).to.equal(0, "not before the frame");
    await frame;
    expect(calls).to.equal(1);
  });
});
