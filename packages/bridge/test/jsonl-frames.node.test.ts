/**
 * The byte-level JSONL framing of the agent's stdout: any chunking of a stream gives frames of whole records,
 * in order, byte for byte, never split at U+2028; oversized records and invalid UTF-8 have defined outcomes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { findRecords, JsonlFramer, sortAgentFrame, UI_REQUEST_NEEDLES } from "../src/jsonl-frames.js";

/** Pushes `bytes` cut at `cuts` and returns the frames joined, plus the oversized reports. */
function frameAll(bytes: Buffer, cuts: number[], maxRecordBytes?: number) {
  const oversized: number[] = [];
  const framer = new JsonlFramer({
    ...(maxRecordBytes ? { maxRecordBytes } : {}),
    onOversized: (n) => oversized.push(n),
  });
  const frames: Buffer[] = [];
  let start = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length]) {
    const parts = framer.push(bytes.subarray(start, cut));
    if (parts.length > 0) frames.push(Buffer.concat(parts));
    start = cut;
  }
  const rest = framer.end();
  if (rest.length > 0) frames.push(Buffer.concat(rest));
  return { frames, oversized };
}

const recordArb = fc
  .array(fc.oneof(fc.string(), fc.constantFrom("\u2028", "\u2029", "漢字", "🎉", "\r", "é")), { maxLength: 8 })
  .map((pieces) => JSON.stringify({ type: "x", text: pieces.join("") }));

describe("JsonlFramer", () => {
  it("gives back whole records, byte for byte, in any chunking (property)", () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 30 }), fc.array(fc.nat(4000)), (records, cuts) => {
        const bytes = Buffer.from(records.map((r) => `${r}\n`).join(""));
        const { frames } = frameAll(bytes, cuts);
        for (const frame of frames) assert.equal(frame.at(-1), 0x0a, "every frame ends with a whole record");
        assert.deepEqual(Buffer.concat(frames), bytes);
        const lines = Buffer.concat(frames).toString("utf8").split("\n").slice(0, -1);
        assert.deepEqual(
          lines.map((line) => JSON.parse(line)),
          records.map((r) => JSON.parse(r)),
        );
      }),
    );
  });

  it("never splits a record at U+2028 or U+2029", () => {
    const record = JSON.stringify({ text: "a\u2028b\u2029c" });
    const { frames } = frameAll(Buffer.from(`${record}\n`), [5, 9, 10, 11]);
    assert.deepEqual(
      frames.map((f) => f.toString("utf8")),
      [`${record}\n`],
    );
  });

  it("keeps one read's records in one frame", () => {
    const burst = Array.from({ length: 2000 }, (_, i) => `{"i":${i}}\n`).join("");
    const framer = new JsonlFramer();
    const parts = framer.push(Buffer.from(burst));
    assert.equal(parts.length, 1);
    assert.equal(Buffer.concat(parts).toString(), burst);
  });

  it("a final record without LF is still a record", () => {
    const { frames } = frameAll(Buffer.from('{"a":1}\n{"b":2}'), []);
    assert.deepEqual(
      frames.map((f) => f.toString()),
      ['{"a":1}\n', '{"b":2}\n'],
    );
  });

  it("drops a record over the limit, reports it, and resumes after its LF (in any chunking)", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(300)), (cuts) => {
        const long = `{"long":"${"x".repeat(100)}"}`;
        const bytes = Buffer.from(`{"a":1}\n${long}\n{"b":2}\n`);
        const { frames, oversized } = frameAll(bytes, cuts, 50);
        assert.equal(Buffer.concat(frames).toString(), '{"a":1}\n{"b":2}\n');
        assert.equal(oversized.length, 1);
        assert.ok((oversized[0] as number) > 50);
      }),
    );
  });

  it("turns bytes that are not UTF-8 into U+FFFD, so frames are always valid WebSocket text", () => {
    const bytes = Buffer.concat([Buffer.from('{"t":"'), Buffer.from([0xff, 0xc3]), Buffer.from('"}\n')]);
    const { frames } = frameAll(bytes, [7]);
    assert.equal(Buffer.concat(frames).toString("utf8"), '{"t":"\uFFFD\uFFFD"}\n');
  });

  it("keeps a UTF-8 sequence cut between reads intact", () => {
    const bytes = Buffer.from('{"t":"漢字"}\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      assert.deepEqual(Buffer.concat(frameAll(bytes, [cut]).frames), bytes, `cut at ${cut}`);
    }
  });
});

describe("findRecords (UI requests)", () => {
  const find = (parts: Buffer[]) => findRecords(parts, UI_REQUEST_NEEDLES);
  const ui = (id: string) => JSON.stringify({ type: "extension_ui_request", id, method: "notify", message: "m" });

  it("finds the records with that type and decodes only those", () => {
    const frame = Buffer.from(
      [
        ui("1"),
        JSON.stringify({ type: "message_update", text: 'talks about "extension_ui_request" in text' }),
        JSON.stringify({ id: "2", type: "extension_ui_request", method: "notify", message: "type not first" }),
        ui("3"),
        '{"type": "extension_ui_request", "id": "4", "method": "notify", "message": "spaced"}',
        "",
      ].join("\n"),
    );
    assert.deepEqual(
      find([frame]).map((r) => JSON.parse(r).id),
      ["1", "2", "3", "4"],
    );
  });

  it("finds a record that spans the parts of a frame", () => {
    const bytes = Buffer.from(`${ui("a")}\n${ui("b")}\n`);
    for (const cut of [3, 20, ui("a").length, ui("a").length + 5]) {
      const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
      if (!parts[1]?.includes(0x0a)) continue;
      assert.deepEqual(
        find(parts).map((r) => JSON.parse(r).id),
        ["a", "b"],
        `cut at ${cut}`,
      );
    }
  });

  it("finds a record that spans several parts, whatever the cuts", () => {
    const records = [
      JSON.stringify({ type: "message_update", text: "x".repeat(200) }),
      ui("compact"),
      '{"type": "extension_ui_request", "id": "spaced", "method": "notify", "message": "m"}',
      JSON.stringify({ id: "late", type: "extension_ui_request", method: "notify", message: "m" }),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...records), fc.array(fc.nat(60), { minLength: 1, maxLength: 4 }), (first, cuts) => {
        const bytes = Buffer.from(`${first}\n${ui("tail")}\n`);
        const ends = [...new Set(cuts.map((c) => Math.min(c + 1, first.length)))].sort((a, b) => a - b);
        const parts = [...ends.map((end, i) => bytes.subarray(ends[i - 1] ?? 0, end)), bytes.subarray(ends.at(-1))];
        const ids = find(parts).map((r) => JSON.parse(r).id);
        assert.deepEqual(ids, first === records[0] ? ["tail"] : [JSON.parse(first).id, "tail"]);
      }),
    );
  });

  it("finds nothing in a frame without the type", () => {
    assert.deepEqual(find([Buffer.from('{"type":"agent_start"}\n')]), []);
  });
});

/** `text` with the characters at the indexes `how` names written as a `\u` escape, or a slash as `\/`. */
function escaped(text: string, how: (index: number) => "u" | "solidus" | undefined): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    const way = how(i);
    if (way === "u") out += `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
    else if (way === "solidus" && char === "/") out += "\\/";
    else out += char;
  }
  return out;
}

describe("sortAgentFrame: decided on the parsed type (issue #18, item 7)", () => {
  const disguisedBridgeRecords = [
    '{"type":"pi-elements\\/agent_exit","code":0}',
    '{"type":"\\u0070i-elements/dialog_closed","id":"d","reason":"answered"}',
    '{"type":"message_update","text":"hi","type":"pi-elements/agent_exit","code":1}',
  ];
  const disguisedUiRequests = [
    '{"type":"extension_\\u0075i_request","id":"u1","method":"confirm","title":"T","message":"M"}',
    '{"type":"message_update","id":"u2","method":"confirm","title":"T","message":"M","type":"extension_ui_request"}',
  ];

  it("drops pi-elements\\/…, \\u0070i-elements/… and a second type key in the namespace; keeps a first one overridden", () => {
    const kept = '{"type":"pi-elements/hello","protocol":1,"type":"message_update"}';
    const frame = Buffer.from([...disguisedBridgeRecords, kept, '{"type":"after"}', ""].join("\n"));
    const { parts, dropped } = sortAgentFrame([frame]);
    assert.equal(dropped, 3);
    assert.deepEqual(
      Buffer.concat(parts)
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line).type),
      ["message_update", "after"],
    );
  });

  it("hands the mirror the UI requests that only a parser recognises", () => {
    const frame = Buffer.from(`${[...disguisedUiRequests, '{"type":"message_update"}'].join("\n")}\n`);
    const ids = sortAgentFrame([frame]).uiRequests.map((text) => JSON.parse(text).id);
    assert.deepEqual(ids, ["u1", "u2"]);
  });

  it("agrees with JSON.parse on every record, however escaped, duplicated or cut (property)", () => {
    const typeArb = fc.constantFrom(
      "pi-elements/agent_exit",
      "pi-elements/hello",
      "extension_ui_request",
      "message_update",
      "pi-elementsX",
      "extension_ui_requests",
    );
    const tokenArb = fc
      .tuple(
        typeArb,
        fc.array(fc.constantFrom<"u" | "solidus" | undefined>("u", "solidus", undefined, undefined, undefined), {
          maxLength: 30,
        }),
      )
      .map(([type, how]) => `"${escaped(type, (i) => how[i])}"`);
    const recordArb = fc
      .tuple(tokenArb, fc.option(tokenArb), fc.string({ maxLength: 20 }))
      .map(([first, second, text]) =>
        second === null
          ? `{"type":${first},"text":${JSON.stringify(text)}}`
          : `{"type":${first},"text":${JSON.stringify(text)},"type":${second}}`,
      );
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(400)), (records, cuts) => {
        const bytes = Buffer.from(records.map((r) => `${r}\n`).join(""));
        const framer = new JsonlFramer();
        const kept: string[] = [];
        const ui: string[] = [];
        let dropped = 0;
        let start = 0;
        for (const cut of [...cuts.filter((c) => c < bytes.length).sort((a, b) => a - b), bytes.length]) {
          const parts = framer.push(bytes.subarray(start, cut));
          start = cut;
          if (parts.length === 0) continue;
          const sorted = sortAgentFrame(parts);
          dropped += sorted.dropped;
          kept.push(...Buffer.concat(sorted.parts).toString().split("\n").filter(Boolean));
          ui.push(...sorted.uiRequests);
        }
        const type = (record: string) => JSON.parse(record).type as string;
        assert.deepEqual(
          kept,
          records.filter((r) => !type(r).startsWith("pi-elements/")),
        );
        assert.equal(dropped, records.length - kept.length);
        // Every record a client would take for a UI request reaches the mirror (which drops the others by type).
        const uiTruth = records.filter((r) => type(r) === "extension_ui_request");
        assert.deepEqual(
          ui.filter((r) => type(r) === "extension_ui_request"),
          uiTruth,
        );
      }),
      { numRuns: 300 },
    );
  });
});
