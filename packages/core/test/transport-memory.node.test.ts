import assert from "node:assert/strict";
import { test } from "node:test";
import type { Diagnostic } from "../src/diagnostics.js";
import { createMemoryPair } from "../src/transports/memory.js";
import { collect, nextValue, untilCount } from "./transport-support.js";

test("memory pair: records arrive at the other end, later (not during send), in order", async () => {
  const [a, b] = createMemoryPair();
  assert.equal(a.state, "open");
  assert.equal(b.state, "open");
  const atB = collect<string>(b, "record");
  const atA = collect<string>(a, "record");
  a.send('{"n":1}');
  a.send('{"n":2}');
  b.send('{"n":"b"}');
  assert.deepEqual(atB, [], "nothing is delivered synchronously");
  await untilCount(b, "record", atB, 2);
  assert.deepEqual(atB, ['{"n":1}', '{"n":2}']);
  assert.deepEqual(atA, ['{"n":"b"}']);
});

test("memory pair: close delivers what was sent first, closes both ends once, and later sends are diagnosed", async () => {
  const [a, b] = createMemoryPair();
  const statesA = collect<string>(a, "state");
  const statesB = collect<string>(b, "state");
  const atB = collect<string>(b, "record");
  a.send("1");
  a.close();
  a.close();
  assert.equal(a.state, "closed");
  await nextValue(b, "state");
  assert.deepEqual(atB, ["1"], "the record sent before close arrived before the close");
  assert.equal(b.state, "closed");
  assert.deepEqual(statesA, ["closed"]);
  assert.deepEqual(statesB, ["closed"]);

  const diagnostics = collect<Diagnostic>(b, "diagnostic");
  b.send('{"late":true}');
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.code, "transport");
  assert.equal(diagnostics[0]?.excerpt, '{"late":true}');
});
