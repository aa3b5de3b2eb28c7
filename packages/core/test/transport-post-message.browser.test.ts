import { expect } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import type { Diagnostic } from "../src/diagnostics.js";
import { PostMessageTransport } from "../src/transports/post-message.js";
import type { TransportState } from "../src/transports/transport.js";
import { collect, nextValue } from "./transport-support.js";

// The peer page (test/fixtures/transports/frame.html) is served by test/support/plugins/cross-origin.mjs from two
// origins on 127.0.0.1, while this test page is on http://localhost:<wtr port>.
type Origins = { peer: string; foreign: string };

async function frameFrom(origin: string): Promise<HTMLIFrameElement> {
  const iframe = document.createElement("iframe");
  iframe.src = `${origin}/frame.html?parent=${encodeURIComponent(location.origin)}`;
  const loaded = new Promise((resolve) => iframe.addEventListener("load", resolve, { once: true }));
  document.body.append(iframe);
  await loaded;
  return iframe;
}

/** Makes the frame post `message` to this page as is (to forge or mix in traffic from that frame). */
function postFrom(frame: HTMLIFrameElement, origin: string, message: unknown): void {
  frame.contentWindow!.postMessage({ piElementsTest: "post", message }, origin);
}

describe("PostMessageTransport between windows of two origins", () => {
  let origins: Origins;
  let peer: HTMLIFrameElement;
  let transport: PostMessageTransport;

  before(async () => {
    origins = await executeServerCommand<Origins, undefined>("cross-origin:origins");
  });

  beforeEach(async () => {
    peer = await frameFrom(origins.peer);
    transport = new PostMessageTransport({
      target: peer.contentWindow!,
      targetOrigin: origins.peer,
      allowedOrigins: [origins.peer],
      channel: "pi-test",
    });
  });

  afterEach(() => {
    transport.close();
    for (const frame of document.querySelectorAll("iframe")) frame.remove();
  });

  it("really is cross-origin: three different origins, and the frame's document is out of reach", () => {
    expect(new Set([location.origin, origins.peer, origins.foreign]).size).to.equal(3);
    expect(() => peer.contentWindow!.document).to.throw();
  });

  it("makes a round trip with the other origin", async () => {
    expect(transport.state).to.equal("open");
    const reply = nextValue<string>(transport, "record");
    transport.send('{"type":"extension_ui_response","id":"1","value":"日本\u2028語"}');
    expect(JSON.parse(await reply)).to.deep.equal({
      echo: { type: "extension_ui_response", id: "1", value: "日本\u2028語" },
      from: origins.peer,
    });
  });

  it("ignores an envelope from a foreign origin, with a diagnostic, and keeps working", async () => {
    const foreign = await frameFrom(origins.foreign);
    const records = collect<string>(transport, "record");
    const diagnostic = nextValue<Diagnostic>(transport, "diagnostic");
    postFrom(foreign, origins.foreign, { piElements: 1, channel: "pi-test", record: '{"type":"forged"}' });
    expect((await diagnostic).message).to.contain(origins.foreign);
    expect(transport.ignored).to.deep.equal({ origin: 1, source: 0, channel: 0, malformed: 0 });
    expect(records).to.deep.equal([]);

    const reply = nextValue<string>(transport, "record");
    transport.send('{"after":true}');
    expect(JSON.parse(await reply).echo).to.deep.equal({ after: true });
    expect(records).to.have.length(1);
  });

  it("ignores an envelope from another window of an allowed origin (event.source is checked)", async () => {
    const sibling = await frameFrom(origins.peer);
    const diagnostic = nextValue<Diagnostic>(transport, "diagnostic");
    const records = collect<string>(transport, "record");
    postFrom(sibling, origins.peer, { piElements: 1, channel: "pi-test", record: '{"type":"impostor"}' });
    expect((await diagnostic).message).to.contain("did not come from the target window");
    expect(transport.ignored.source).to.equal(1);
    expect(records).to.deep.equal([]);
  });

  it("ignores other channels and leaves the page's other postMessage traffic alone", async () => {
    const pageTraffic: unknown[] = [];
    const onMessage = (event: MessageEvent) => pageTraffic.push(event.data);
    window.addEventListener("message", onMessage);
    const diagnostics = collect<Diagnostic>(transport, "diagnostic");
    const record = nextValue<string>(transport, "record");
    // Same source window, so these arrive in this order.
    postFrom(peer, origins.peer, { piElements: 1, channel: "someone-else", record: '{"other":1}' });
    postFrom(peer, origins.peer, { hello: "not an envelope" });
    postFrom(peer, origins.peer, { piElements: 1, channel: "pi-test", record: 42 });
    postFrom(peer, origins.peer, { piElements: 1, channel: "pi-test", record: '{"mine":1}' });
    expect(await record).to.equal('{"mine":1}');
    window.removeEventListener("message", onMessage);
    expect(transport.ignored).to.deep.equal({ origin: 0, source: 0, channel: 1, malformed: 1 });
    expect(diagnostics.map((d) => d.message)).to.deep.equal(["Ignored an envelope whose record is not a string."]);
    expect(pageTraffic).to.deep.include({ hello: "not an envelope" });
  });

  it("close() is final and idempotent: one state event, no more records, sends diagnosed", async () => {
    const states = collect<TransportState>(transport, "state");
    const records = collect<string>(transport, "record");
    const diagnostics = collect<Diagnostic>(transport, "diagnostic");
    transport.close();
    transport.close();
    transport.send('{"late":1}');
    // A second transport on the same window and channel proves the message arrived; the closed one saw nothing.
    const witness = new PostMessageTransport({
      target: peer.contentWindow!,
      targetOrigin: origins.peer,
      allowedOrigins: [origins.peer],
      channel: "pi-test",
    });
    const seen = nextValue<string>(witness, "record");
    postFrom(peer, origins.peer, { piElements: 1, channel: "pi-test", record: '{"after-close":1}' });
    expect(await seen).to.equal('{"after-close":1}');
    witness.close();
    expect(states).to.deep.equal(["closed"]);
    expect(records).to.deep.equal([]);
    expect(diagnostics.map((d) => d.message)).to.deep.equal(["Record dropped: the postMessage transport is closed."]);
  });
});

describe("PostMessageTransport refuses unsafe Window setups", () => {
  const target = window;

  it("requires an explicit targetOrigin", () => {
    expect(() => new PostMessageTransport({ target, allowedOrigins: [location.origin] } as never)).to.throw(
      TypeError,
      /needs an explicit `targetOrigin`/,
    );
  });

  it("requires allowedOrigins", () => {
    expect(() => new PostMessageTransport({ target, targetOrigin: location.origin } as never)).to.throw(
      TypeError,
      /needs `allowedOrigins`/,
    );
    expect(() => new PostMessageTransport({ target, targetOrigin: location.origin, allowedOrigins: [] })).to.throw(
      TypeError,
      /needs `allowedOrigins`/,
    );
  });

  it('refuses "*" unless dangerouslyAllowAnyOrigin is set', () => {
    expect(() => new PostMessageTransport({ target, targetOrigin: "*", allowedOrigins: [location.origin] })).to.throw(
      TypeError,
      /dangerouslyAllowAnyOrigin/,
    );
    expect(() => new PostMessageTransport({ target, targetOrigin: location.origin, allowedOrigins: ["*"] })).to.throw(
      TypeError,
      /dangerouslyAllowAnyOrigin/,
    );
    const unsafe = new PostMessageTransport({
      target,
      targetOrigin: "*",
      allowedOrigins: ["*"],
      dangerouslyAllowAnyOrigin: true,
    });
    expect(unsafe.state).to.equal("open");
    unsafe.close();
  });

  it("refuses things that are not origins, and targets that cannot post", () => {
    expect(
      () =>
        new PostMessageTransport({
          target,
          targetOrigin: `${location.origin}/path`,
          allowedOrigins: [location.origin],
        }),
    ).to.throw(TypeError, /is not an origin/);
    expect(
      () => new PostMessageTransport({ target, targetOrigin: location.origin, allowedOrigins: ["null"] }),
    ).to.throw(TypeError, /is not an origin/);
    expect(() => new PostMessageTransport({ target: null } as never)).to.throw(TypeError, /must be a Window/);
  });
});

describe("PostMessageTransport over ports, workers and channels", () => {
  it("MessagePort: a round trip between the two ends of a MessageChannel", async () => {
    const { port1, port2 } = new MessageChannel();
    const left = new PostMessageTransport({ target: port1 });
    const right = new PostMessageTransport({ target: port2 });
    right.addEventListener("record", (event) => right.send(JSON.stringify({ echo: JSON.parse(event.value) })));
    const reply = nextValue<string>(left, "record");
    left.send('{"n":1}');
    expect(await reply).to.equal('{"echo":{"n":1}}');
    expect(left.state).to.equal("open");
    left.close();
    right.close();
    port1.close();
  });

  it("Worker: a round trip with a module worker running the transport on its side", async () => {
    const worker = new Worker(new URL("/test/fixtures/transports/echo-worker.ts", location.origin), { type: "module" });
    const transport = new PostMessageTransport({ target: worker, channel: "worker-test" });
    const replies = collect<string>(transport, "record");
    const first = nextValue<string>(transport, "record");
    transport.send('{"type":"get_state","id":"w1"}');
    expect(await first).to.equal('{"echo":{"type":"get_state","id":"w1"}}');
    expect(replies).to.have.length(1);
    transport.close();
    worker.terminate();
  });

  it("BroadcastChannel: records reach another BroadcastChannel of the same name", async () => {
    const name = `pi-test-${Date.now()}`;
    const a = new BroadcastChannel(name);
    const b = new BroadcastChannel(name);
    const left = new PostMessageTransport({ target: a });
    const right = new PostMessageTransport({ target: b });
    const received = nextValue<string>(right, "record");
    left.send('{"hello":"channel"}');
    expect(await received).to.equal('{"hello":"channel"}');
    left.close();
    right.close();
    a.close();
    b.close();
  });
});
