import assert from "node:assert/strict";
import { test } from "node:test";
import { JsonlDecoder } from "../src/codec/jsonl.js";

test("JsonlDecoder joins a UTF-8 sequence split across byte chunks", () => {
  const lines: string[] = [];
  const decoder = new JsonlDecoder({ onRecord: (line) => lines.push(line) });
  const bytes = new TextEncoder().encode('{"t":"日本"}\n');
  decoder.push(bytes.subarray(0, 7));
  decoder.push(bytes.subarray(7));
  assert.deepEqual(lines, ['{"t":"日本"}']);
});
