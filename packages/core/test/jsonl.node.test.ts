import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { encodeJsonl, JsonlDecoder, parseRecord } from "../src/codec/jsonl.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { checkByteChunking, checkEncoderRoundTrip, checkTextChunking, decodeAll } from "./jsonl-properties.js";

function decoder(maxLineLength?: number) {
  const lines: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const d = new JsonlDecoder({
    onRecord: (line) => lines.push(line),
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...(maxLineLength === undefined ? {} : { maxLineLength }),
  });
  return { d, lines, diagnostics };
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("JsonlDecoder framing", () => {
  test("LF is the only separator: a lone CR, U+2028, U+2029, NEL and form feed stay inside the record", () => {
    assert.deepEqual(decodeAll(["a\rb\n", "c\u2028d\u2029e\n", "f\u0085g\fh\n"]), [
      "a\rb",
      "c\u2028d\u2029e",
      "f\u0085g\fh",
    ]);
  });

  test("U+2028 and U+2029 inside a JSON string survive framing and parsing", () => {
    const record = JSON.stringify({ text: "one\u2028two\u2029three" });
    assert.ok(record.includes("\u2028"), "JSON.stringify keeps U+2028 raw, as pi's output does");
    const [line] = decodeAll([`${record}\n`]);
    assert.deepEqual(JSON.parse(line!), { text: "one\u2028two\u2029three" });
  });

  test("exactly one trailing CR is stripped", () => {
    assert.deepEqual(decodeAll(["x\r\n", "y\r\r\n", "z\r", "\n"]), ["x", "y\r", "z"]);
  });

  test("empty lines and CR-only lines are skipped", () => {
    assert.deepEqual(decodeAll(["\n\n1\n\r\n\n", "2\n\n"]), ["1", "2"]);
  });

  test("a record split into one-character chunks is joined", () => {
    assert.deepEqual(decodeAll([..."[1,2]\r\n{}\n"]), ["[1,2]", "{}"]);
  });

  test("a UTF-8 stream split at every byte offset, and byte by byte, decodes the same", () => {
    const text = '{"t":"日本 é 🎉 \u2028"}\r\n["𝄞","世界"]\n';
    const bytes = utf8(text);
    const expected = ['{"t":"日本 é 🎉 \u2028"}', '["𝄞","世界"]'];
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j += 3) {
        assert.deepEqual(
          decodeAll([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]),
          expected,
          `${i}/${j}`,
        );
      }
    }
    assert.deepEqual(decodeAll([...bytes].map((b) => Uint8Array.of(b))), expected);
  });

  test("a leading UTF-8 byte-order mark is not part of the first record", () => {
    assert.deepEqual(decodeAll([Uint8Array.of(0xef, 0xbb, 0xbf), utf8("{}\n")]), ["{}"]);
  });

  test("invalid UTF-8 becomes U+FFFD instead of stopping the stream", () => {
    assert.deepEqual(decodeAll([Uint8Array.of(0x22, 0xff, 0x22, 0x0a), utf8("1\n")]), ['"\ufffd"', "1"]);
  });
});

describe("JsonlDecoder maximum line length", () => {
  test("a line exactly at the limit is a record, with LF or CRLF", () => {
    const { d, lines, diagnostics } = decoder(10);
    d.push("0123456789\n0123456789\r\n");
    assert.deepEqual(lines, ["0123456789", "0123456789"]);
    assert.deepEqual(diagnostics, []);
  });

  test("a line one over the limit is dropped with a line-too-long diagnostic; decoding resumes after its LF", () => {
    const { d, lines, diagnostics } = decoder(10);
    d.push('0123456789A\n{"next":1}\n');
    assert.deepEqual(lines, ['{"next":1}']);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.code, "line-too-long");
    assert.equal(diagnostics[0]!.excerpt, "0123456789A");
  });

  test("a line of the limit plus a CR that is not a CRLF's is too long", () => {
    const { d, lines, diagnostics } = decoder(4);
    d.push("abcd\r\r\nok\n");
    assert.deepEqual(lines, ["ok"]);
    assert.deepEqual(
      diagnostics.map((x) => x.code),
      ["line-too-long"],
    );
  });

  test("an oversized line split across many chunks gives one diagnostic and the next line decodes", () => {
    const { d, lines, diagnostics } = decoder(16);
    d.push('{"a":1}\n');
    for (let i = 0; i < 500; i++) d.push("xxxxxxx");
    d.push('tail\n{"b":2}');
    d.push("\n");
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.code, "line-too-long");
    assert.ok(diagnostics[0]!.excerpt!.startsWith("xxxxxxx"));
    assert.ok(diagnostics[0]!.excerpt!.length <= 120);
  });

  test("an oversized line fed as bytes, one byte per chunk, is dropped and the stream goes on", () => {
    const { d, lines, diagnostics } = decoder(8);
    for (const byte of utf8("世界世界世界世界世界\n[1]\n")) d.push(Uint8Array.of(byte));
    assert.deepEqual(lines, ["[1]"]);
    assert.equal(diagnostics.length, 1);
  });

  test("a line exactly at the limit split across chunks is a record", () => {
    const { d, lines, diagnostics } = decoder(6);
    for (const c of "[1,22]\r\n") d.push(c);
    assert.deepEqual(lines, ["[1,22]"]);
    assert.deepEqual(diagnostics, []);
  });

  test("the diagnostic excerpt of a huge line is short and comes from its start", () => {
    const { d, diagnostics } = decoder(1000);
    d.push(`{"big":"${"y".repeat(100_000)}"}\n`);
    assert.equal(diagnostics.length, 1);
    assert.ok(diagnostics[0]!.excerpt!.startsWith('{"big":"yyy'));
    assert.ok(diagnostics[0]!.excerpt!.length <= 120);
  });

  test("the default limit is 8 MiB", () => {
    const { d, lines, diagnostics } = decoder();
    const atLimit = `"${"z".repeat(8 * 1024 * 1024 - 2)}"`;
    d.push(`${atLimit}\n${atLimit}z\n1\n`);
    assert.equal(lines.length, 2);
    assert.equal(lines[0]!.length, 8 * 1024 * 1024);
    assert.equal(lines[1], "1");
    assert.equal(diagnostics.length, 1);
  });
});

describe("JsonlDecoder end()", () => {
  test("flushes a final line without LF, stripping one CR", () => {
    const { d, lines } = decoder();
    d.push('{"a":1}\n{"b"');
    d.push(":2}\r");
    assert.deepEqual(lines, ['{"a":1}']);
    d.end();
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  });

  test("flushes bytes of a final line, and an incomplete UTF-8 sequence at the end becomes U+FFFD", () => {
    const { d, lines } = decoder();
    const bytes = utf8('"日"');
    d.push(bytes.subarray(0, 3));
    d.end();
    assert.deepEqual(lines, ['"\ufffd']);
  });

  test("emits nothing for an empty stream or a stream ending in LF", () => {
    const { d, lines } = decoder();
    d.end();
    d.push("1\n");
    d.end();
    assert.deepEqual(lines, ["1"]);
  });

  test("an oversized final line without LF is dropped, and the decoder is usable afterwards", () => {
    const { d, lines, diagnostics } = decoder(3);
    d.push("12345");
    d.end();
    d.push("123\n");
    assert.deepEqual(lines, ["123"]);
    assert.equal(diagnostics.length, 1);
  });
});

describe("parseRecord", () => {
  test("parses JSON and reports anything else as an invalid-json diagnostic with a short excerpt", () => {
    assert.deepEqual(parseRecord('{"a":[1,"\u2028"]}'), { ok: true, value: { a: [1, "\u2028"] } });
    const bad = parseRecord(`not json ${"x".repeat(500)}`);
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.diagnostic.code === "invalid-json");
    assert.ok(!bad.ok && bad.diagnostic.excerpt!.length <= 120);
  });

  test("never throws, whatever the text (including deep nesting and lone surrogates)", () => {
    for (const text of ["", "{", "[".repeat(200_000), "\ud800", "1 2", "undefined", '{"a":1,}', "\u0000"]) {
      assert.equal(typeof parseRecord(text).ok, "boolean");
    }
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const result = parseRecord(text);
        return result.ok || result.diagnostic.code === "invalid-json";
      }),
      { numRuns: 500 },
    );
  });
});

describe("encodeJsonl", () => {
  test("writes exactly one line ending in LF, even for strings with LF, CR and U+2028", () => {
    const line = encodeJsonl({ text: "a\nb\rc\u2028d" });
    assert.equal(line.indexOf("\n"), line.length - 1);
    assert.ok(!line.slice(0, -1).includes("\r"));
  });
});

describe("codec properties (fast-check)", () => {
  test("any chunking of the text of any sequence of JSON values decodes to the same values", () => {
    checkTextChunking(500);
  });
  test("any chunking of the UTF-8 bytes of any sequence of JSON values decodes to the same values", () => {
    checkByteChunking(500);
  });
  test("the encoder's output always decodes back", () => {
    checkEncoderRoundTrip(500);
  });
});
