import { expect } from "@open-wc/testing";
import { StreamTransport } from "../src/transports/stream.js";
import type { TransportState } from "../src/transports/transport.js";
import { collect, nextValue } from "./transport-support.js";

describe("StreamTransport in Chromium", () => {
  it("reads a fetch response body as JSONL (U+2028 kept inside a record, CRLF accepted), then closes", async () => {
    const response = await fetch("/test/fixtures/transports/sample.jsonl");
    const transport = new StreamTransport({ readable: response.body! });
    const records = collect<string>(transport, "record");
    await nextValue<TransportState>(transport, "state", (state) => state === "closed");
    expect(records.map((record) => JSON.parse(record).type)).to.deep.equal([
      "agent_start",
      "message_update",
      "extension_ui_request",
      "agent_end",
    ]);
    expect(JSON.parse(records[1]!).text).to.equal("日本語\u2028two");
  });

  it("writes LF-terminated UTF-8 lines through a TransformStream (what a streaming fetch body would get)", async () => {
    const pipe = new TransformStream<Uint8Array, Uint8Array>();
    const transport = new StreamTransport({ readable: new ReadableStream(), writable: pipe.writable });
    transport.send('{"type":"prompt","message":"こんにちは"}');
    transport.send('{"type":"abort"}');
    transport.close();
    const text = await new Response(pipe.readable).text();
    expect(text).to.equal('{"type":"prompt","message":"こんにちは"}\n{"type":"abort"}\n');
  });
});
