import { expect } from "@open-wc/testing";
import { JsonlDecoder } from "../src/codec/jsonl.js";
import { checkByteChunking, checkEncoderRoundTrip, checkTextChunking } from "./jsonl-properties.js";

// The same properties as the Node test, against Chromium's own TextDecoder and string implementation.
describe("JsonlDecoder in Chromium", () => {
  it("splits on LF only, strips one CR and keeps U+2028 inside a record", () => {
    const lines: string[] = [];
    const decoder = new JsonlDecoder({ onRecord: (line) => lines.push(line) });
    decoder.push('{"a":"x\u2028y"}\r\n{"b":');
    decoder.push("2}\r\r\n");
    expect(lines).to.deep.equal(['{"a":"x\u2028y"}', '{"b":2}\r']);
  });

  it("any chunking of the text of any sequence of JSON values decodes to the same values", () => {
    checkTextChunking(300);
  });

  it("any chunking of the UTF-8 bytes of any sequence of JSON values decodes to the same values", () => {
    checkByteChunking(300);
  });

  it("the encoder's output always decodes back", () => {
    checkEncoderRoundTrip(300);
  });
});
