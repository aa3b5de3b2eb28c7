import { expect } from "@open-wc/testing";
import { JsonlDecoder } from "../src/codec/jsonl.js";

describe("JsonlDecoder (smoke)", () => {
  it("splits on LF only and keeps U+2028 inside a record", () => {
    const lines: string[] = [];
    const decoder = new JsonlDecoder({ onRecord: (line) => lines.push(line) });
    decoder.push('{"a":"x\u2028y"}\r\n{"b":');
    decoder.push("2}\n");
    expect(lines).to.deep.equal(['{"a":"x\u2028y"}', '{"b":2}']);
  });
});
