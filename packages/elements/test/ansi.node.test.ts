import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { paletteColor, parseAnsi, stripAnsi } from "../src/ansi/parse-ansi.js";

const E = "\u001b";
const sgr = (codes: string) => `${E}[${codes}m`;

describe("parseAnsi: SGR", () => {
  it("returns plain text as one unstyled run", () => {
    assert.deepEqual(parseAnsi("hello"), [{ text: "hello", style: {} }]);
    assert.deepEqual(parseAnsi(""), []);
  });

  it("maps the 8 standard and 8 bright foreground colours to themed tokens", () => {
    for (let n = 0; n < 8; n++) {
      assert.deepEqual(parseAnsi(`${sgr(String(30 + n))}x`), [{ text: "x", style: { fg: `var(--_ansi-${n})` } }]);
      assert.deepEqual(parseAnsi(`${sgr(String(90 + n))}x`), [{ text: "x", style: { fg: `var(--_ansi-${n + 8})` } }]);
      assert.deepEqual(parseAnsi(`${sgr(String(40 + n))}x`), [{ text: "x", style: { bg: `var(--_ansi-${n})` } }]);
      assert.deepEqual(parseAnsi(`${sgr(String(100 + n))}x`), [{ text: "x", style: { bg: `var(--_ansi-${n + 8})` } }]);
    }
  });

  it("reads 256-colour values: the first 16 themed, the cube and the grey ramp as xterm", () => {
    assert.equal(parseAnsi(`${sgr("38;5;9")}x`)[0]?.style.fg, "var(--_ansi-9)");
    assert.equal(parseAnsi(`${sgr("38;5;226")}x`)[0]?.style.fg, "#ffff00");
    assert.equal(parseAnsi(`${sgr("48;5;16")}x`)[0]?.style.bg, "#000000");
    assert.equal(parseAnsi(`${sgr("38;5;231")}x`)[0]?.style.fg, "#ffffff");
    assert.equal(parseAnsi(`${sgr("38;5;232")}x`)[0]?.style.fg, "#080808");
    assert.equal(parseAnsi(`${sgr("38;5;255")}x`)[0]?.style.fg, "#eeeeee");
    assert.equal(paletteColor(67), "#5f87af");
  });

  it("reads 24-bit colours in semicolon and colon forms", () => {
    assert.equal(parseAnsi(`${sgr("38;2;138;190;183")}x`)[0]?.style.fg, "#8abeb7");
    assert.equal(parseAnsi(`${sgr("48;2;1;2;3")}x`)[0]?.style.bg, "#010203");
    assert.equal(parseAnsi(`${sgr("38:2::10:20:30")}x`)[0]?.style.fg, "#0a141e");
    assert.equal(parseAnsi(`${sgr("38:2:10:20:30")}x`)[0]?.style.fg, "#0a141e");
    assert.equal(parseAnsi(`${sgr("38:5:1")}x`)[0]?.style.fg, "var(--_ansi-1)");
  });

  it("ignores invalid extended colours without losing the parameters after them", () => {
    assert.deepEqual(parseAnsi(`${sgr("38;2;300;0;0")}x`)[0]?.style, {});
    assert.deepEqual(parseAnsi(`${sgr("38;5")}x`)[0]?.style, {});
    assert.deepEqual(parseAnsi(`${sgr("38;7;1")}x`)[0]?.style, { bold: true, inverse: true });
    assert.deepEqual(parseAnsi(`${sgr("38;5;1;1")}x`)[0]?.style, { fg: "var(--_ansi-1)", bold: true });
  });

  it("sets and clears each attribute with its own partial reset", () => {
    const on = parseAnsi(`${sgr("1;2;3;4;7;9")}x`)[0]?.style;
    assert.deepEqual(on, { bold: true, dim: true, italic: true, underline: true, inverse: true, strikethrough: true });
    const cases: [string, string][] = [
      ["22", "bold dim"],
      ["23", "italic"],
      ["24", "underline"],
      ["27", "inverse"],
      ["29", "strikethrough"],
    ];
    for (const [reset, cleared] of cases) {
      const style = parseAnsi(`${sgr("1;2;3;4;7;9")}a${sgr(reset)}b`)[1]?.style ?? {};
      for (const key of cleared.split(" ")) assert.equal(key in style, false, `${reset} clears ${key}`);
      assert.equal(Object.keys(style).length, 6 - cleared.split(" ").length, `${reset} keeps the rest`);
    }
  });

  it("reads colon underline styles: 4:0 clears, 4:3 (curly) underlines", () => {
    assert.deepEqual(parseAnsi(`${sgr("4:3")}a${sgr("4:0")}b`), [
      { text: "a", style: { underline: true } },
      { text: "b", style: {} },
    ]);
  });

  it("resets the foreground with 39 and the background with 49, keeping the other", () => {
    const runs = parseAnsi(`${sgr("31;42")}a${sgr("39")}b${sgr("33")}c${sgr("49")}d`);
    assert.deepEqual(
      runs.map((r) => r.style),
      [
        { fg: "var(--_ansi-1)", bg: "var(--_ansi-2)" },
        { bg: "var(--_ansi-2)" },
        { fg: "var(--_ansi-3)", bg: "var(--_ansi-2)" },
        { fg: "var(--_ansi-3)" },
      ],
    );
  });

  it("resets everything with 0 and with an empty parameter list", () => {
    assert.deepEqual(parseAnsi(`${sgr("1;31")}a${sgr("0")}b`)[1], { text: "b", style: {} });
    assert.deepEqual(parseAnsi(`${sgr("1;31")}a${E}[mb`)[1], { text: "b", style: {} });
    assert.deepEqual(parseAnsi(`${sgr("1;31")}a${sgr(";4")}b`)[1]?.style, { underline: true });
  });

  it("merges adjacent text with the same style", () => {
    assert.deepEqual(parseAnsi(`${sgr("1")}a${sgr("1")}b${sgr("0")}${sgr("0")}c`), [
      { text: "ab", style: { bold: true } },
      { text: "c", style: {} },
    ]);
  });

  it("parses the styling a real extension sends (theme.fg with 24-bit colour and 39)", () => {
    assert.deepEqual(parseAnsi("\u001b[38;2;138;190;183m● ready\u001b[39m 3 files"), [
      { text: "● ready", style: { fg: "#8abeb7" } },
      { text: " 3 files", style: {} },
    ]);
  });
});

describe("parseAnsi: other sequences", () => {
  it("turns OSC 8 http(s) links into runs with an href, closed by an empty URI; BEL or ESC \\ end them", () => {
    const runs = parseAnsi(
      `see ${E}]8;;https://pi.dev/docs${E}\\docs${E}]8;;${E}\\ and ${E}]8;id=1;http://x.test/${E}\u0007x${E}]8;;\u0007.`,
    );
    assert.deepEqual(runs, [
      { text: "see ", style: {} },
      { text: "docs", style: {}, href: "https://pi.dev/docs" },
      { text: " and ", style: {} },
      { text: "x", style: {}, href: "http://x.test/" },
      { text: ".", style: {} },
    ]);
  });

  it("keeps the text but drops the link for other schemes", () => {
    for (const uri of [
      "javascript:alert(1)",
      "file:///etc/passwd",
      "data:text/html,<b>x</b>",
      "JAVASCRIPT:x",
      "http:/x",
      "//evil.test",
    ]) {
      assert.deepEqual(parseAnsi(`${E}]8;;${uri}${E}\\click${E}]8;;${E}\\`), [{ text: "click", style: {} }], uri);
    }
  });

  it("strips other OSC, CSI, DCS and two-byte escapes, and a stray ESC", () => {
    assert.equal(
      stripAnsi(`${E}]0;window title\u0007a${E}[2Jb${E}[?25lc${E}[1;2Hd${E}(Be${E}7f${E}Pdcs${E}\\g${E}`),
      "abcdefg",
    );
    assert.equal(stripAnsi(`a${E}[31`), "a");
    assert.equal(stripAnsi(`a${E}]8;;https://x.test`), "a");
    assert.equal(stripAnsi(`a${E}[1\u0000b`), "a\u0000b");
    assert.equal(stripAnsi(`a${E}${E}[1mb`), "ab");
  });

  it("does not treat private or intermediate CSI forms as SGR", () => {
    assert.deepEqual(parseAnsi(`${E}[?1mx${E}[1 mx`), [{ text: "xx", style: {} }]);
  });
});

describe("parseAnsi: properties", () => {
  const plain = fc.string({ unit: "binary" }).map((s) => s.replaceAll(E, ""));
  const sequence = fc.oneof(
    fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 6 }).map((n) => sgr(n.join(";"))),
    fc.stringMatching(/^[0-9;:]{0,12}$/).map((p) => `${E}[${p}m`),
    fc.stringMatching(/^[0-9;?]{0,6}[A-Za-z@`~]$/).map((p) => `${E}[${p}`),
    fc
      .tuple(
        fc.constantFrom("https://", "http://", "javascript:", "ftp://", ""),
        fc.webPath(),
        fc.constantFrom("\u0007", `${E}\\`),
      )
      .map(([scheme, path, st]) => `${E}]8;;${scheme}x.test${path}${st}`),
    plain.map((t) => `${E}]0;${t.replaceAll("\u0007", "")}\u0007`),
  );
  const token = fc.oneof(
    plain.map((text) => ({ text, raw: text })),
    sequence.map((raw) => ({ text: "", raw })),
  );

  it("the visible text is exactly the input without its escape sequences", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 20 }), (tokens) => {
        const input = tokens.map((t) => t.raw).join("");
        assert.equal(stripAnsi(input), tokens.map((t) => t.text).join(""));
      }),
    );
  });

  it("never lets an ESC through, never loses non-escape text order, and never returns an empty run", () => {
    const soup = fc.array(
      fc.oneof(fc.string(), fc.constantFrom(E, "[", "]", "\u0007", "\\", "8;;", "m", ";", "38;5;", "https://a.test")),
      {
        maxLength: 40,
      },
    );
    fc.assert(
      fc.property(soup, (parts) => {
        const input = parts.join("");
        const runs = parseAnsi(input);
        const text = runs.map((r) => r.text).join("");
        assert.ok(!text.includes(E));
        assert.ok(runs.every((r) => r.text.length > 0));
        let at = 0;
        for (const ch of text) {
          at = input.indexOf(ch, at);
          assert.notEqual(at, -1);
          at += ch.length;
        }
        for (const run of runs) if (run.href !== undefined) assert.match(run.href, /^https?:\/\//);
      }),
    );
  });
});
