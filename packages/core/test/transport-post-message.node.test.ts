import assert from "node:assert/strict";
import { test } from "node:test";
import { PostMessageTransport } from "../src/transports/post-message.js";
import { nextValue } from "./transport-support.js";

test("postMessage over Node's MessageChannel: a round trip, and raw messages on the port are left alone", async () => {
  const { port1, port2 } = new MessageChannel();
  const left = new PostMessageTransport({ target: port1, channel: "node" });
  const right = new PostMessageTransport({ target: port2, channel: "node" });
  right.addEventListener("record", (event) => right.send(`{"echo":${event.value}}`));
  port2.postMessage({ unrelated: true });
  const reply = nextValue<string>(left, "record");
  left.send('{"n":1}');
  assert.equal(await reply, '{"echo":{"n":1}}');
  assert.deepEqual(left.ignored, { origin: 0, source: 0, channel: 0, malformed: 0 });
  left.close();
  right.close();
  port1.close();
});
