import { expect } from "@open-wc/testing";
import { conversationOf } from "../src/conversation/conversation-of.js";
import { PiSession } from "../src/session/pi-session.js";
import { assistant, streamAssistant } from "./conversation-wire.js";
import { FakeTransport } from "./session-fakes.js";

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

describe("conversation store batching in a browser", () => {
  it("tokens arriving in separate tasks give at most one subscriber call per animation frame", async () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport);
    const store = conversationOf(session);
    let calls = 0;
    store.subscribe(() => calls++);
    const text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen";
    const events = streamAssistant("1.6.0", assistant([{ type: "text", text }]), 3);
    await nextFrame();
    let frames = 0;
    let counting = true;
    const count = () => {
      frames++;
      if (counting) requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
    // One task per update, as records arriving from a socket are: a per-burst schedule would call once per task.
    for (const event of events.slice(0, -1)) {
      transport.receive(event);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await nextFrame();
    await nextFrame();
    counting = false;
    const tasks = events.length - 1;
    expect(calls).to.be.greaterThan(0);
    expect(calls).to.be.at.most(frames, `${calls} calls in ${frames} frames for ${tasks} tasks`);
    expect(calls).to.be.lessThan(tasks);
    const block = store.getSnapshot().streaming?.blocks[0];
    expect(block?.type === "text" && block.text).to.equal(text);
    session.close();
  });

  it("the UI store keeps its one call per burst (microtask), not per frame", async () => {
    const transport = new FakeTransport();
    const session = new PiSession(transport);
    void conversationOf(session);
    let calls = 0;
    session.ui.subscribe(() => calls++);
    transport.receive({ type: "agent_start" });
    await Promise.resolve();
    expect(calls).to.equal(1);
    session.close();
  });
});
