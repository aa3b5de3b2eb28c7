/**
 * `attachedConversation` is one record per page, shared by every copy of the library: a prompt from the extension-UI
 * bundle sees the store the transcript bundle's copy of the core made for the same session.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PiSession } from "../src/session/pi-session.js";
import { FakeTransport } from "./session-fakes.js";

type Attached = typeof import("../src/conversation/attached.js");

test("a store one copy of the core registers is found, and announced, through another copy", async () => {
  // Two instances of the module, as two bundles on one page each carry their own.
  const copy = (name: string) => new URL(`../src/conversation/attached.js?copy=${name}`, import.meta.url).href;
  const one = (await import(copy("one"))) as Attached;
  const two = (await import(copy("two"))) as Attached;
  assert.notEqual(one.attachedConversation, two.attachedConversation, "two copies of the module");
  const session = new PiSession(new FakeTransport());
  const heard: PiSession[] = [];
  const off = two.onConversationAttached((s) => heard.push(s));
  assert.equal(two.attachedConversation(session), undefined);
  const store = { getSnapshot: () => undefined as never, subscribe: () => () => {} };
  one.registerConversation(session, store);
  assert.equal(two.attachedConversation(session), store);
  assert.deepEqual(heard, [session]);
  off();
});
