import { expect } from "@open-wc/testing";
import fc from "fast-check";
import { render } from "lit";
import { stripAnsi } from "../src/ansi/parse-ansi.js";
import { MAX_STYLED_RUNS, renderAnsi } from "../src/ansi/render-ansi.js";

const E = "\u001b";

function mount(text: string): HTMLElement {
  const host = document.createElement("div");
  render(renderAnsi(text), host);
  return host;
}

/** Every element is a styled span or an allowed link; returns a description of the first that is not. */
function foreignElement(root: HTMLElement): string | undefined {
  for (const el of root.querySelectorAll("*")) {
    if (el.children.length > 0) return `${el.tagName} has children`;
    if (el instanceof HTMLSpanElement) {
      const attrs = el.getAttributeNames().filter((n) => n !== "class" && n !== "style");
      if (attrs.length) return `span with ${attrs.join(",")}`;
      continue;
    }
    if (el instanceof HTMLAnchorElement) {
      if (!/^https?:$/.test(el.protocol) || el.rel !== "noopener noreferrer" || el.target !== "_blank")
        return `bad link ${el.outerHTML}`;
      continue;
    }
    return el.tagName;
  }
  return undefined;
}

const markup = fc.constantFrom(
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "<a href='javascript:alert(1)'>x</a>",
  "&lt;b&gt;",
  "<!-- c -->",
  "]]>",
  "<svg onload=alert(1)>",
);
const escapes = fc.constantFrom(
  `${E}[31m`,
  `${E}[1;4;38;2;1;2;3m`,
  `${E}[0m`,
  `${E}[m`,
  `${E}]8;;https://pi.dev/${E}\\`,
  `${E}]8;;javascript:alert(1)\u0007`,
  `${E}]8;;${E}\\`,
  `${E}]0;title\u0007`,
  `${E}[2J`,
  E,
  `${E}[`,
  `${E}]`,
);

describe("renderAnsi", () => {
  it("renders colours, attributes and links as styled spans and a safe anchor", () => {
    const host = mount(`a${E}[1;31mb${E}[22;4mc${E}[0m ${E}]8;;https://pi.dev/${E}\\link${E}]8;;${E}\\`);
    expect(host.textContent).to.equal("abc link");
    const spans = host.querySelectorAll("span");
    expect(spans).to.have.length(2);
    expect([...(spans[0]?.classList ?? [])]).to.deep.equal(["ansi-bold"]);
    expect(spans[0]?.style.color).to.equal("var(--_ansi-1)");
    expect([...(spans[1]?.classList ?? [])]).to.deep.equal(["ansi-underline"]);
    const link = host.querySelector("a");
    expect(link?.href).to.equal("https://pi.dev/");
    expect(link?.rel).to.equal("noopener noreferrer");
    expect(link?.target).to.equal("_blank");
    expect(link?.getAttribute("part")).to.equal("link");
  });

  it("inverse swaps the colours, filling an unset side from the theme", () => {
    const host = mount(`${E}[7;32mx${E}[27;43;7my`);
    const [a, b] = host.querySelectorAll("span");
    expect(a?.style.color).to.equal("var(--_bg)");
    expect(a?.style.backgroundColor).to.equal("var(--_ansi-2)");
    expect(b?.style.color).to.equal("var(--_ansi-3)");
    expect(b?.style.backgroundColor).to.equal("var(--_ansi-2)");
  });

  it("renders at most MAX_STYLED_RUNS styled runs per text; the rest of the text follows as plain text, in order", () => {
    // 100,000 colour changes, each with one character: without a cap, 100,000 spans.
    const count = 100_000;
    const text = Array.from({ length: count }, (_, i) => `${E}[3${(i % 2) + 1}m${i % 10}`).join("");
    const host = mount(`${text}${E}]8;;https://pi.dev/${E}\\link${E}]8;;${E}\\`);
    const spans = host.querySelectorAll("span");
    expect(spans).to.have.length(MAX_STYLED_RUNS);
    expect(spans[0]?.style.color).to.equal("var(--_ansi-1)");
    expect(spans[1]?.style.color).to.equal("var(--_ansi-2)");
    expect(host.querySelector("a"), "a link past the cap is plain text").to.equal(null);
    const visible = Array.from({ length: count }, (_, i) => i % 10).join("");
    expect(host.textContent).to.equal(`${visible}link`);
    // Under the cap nothing changes: each run keeps its element.
    const under = mount(text.slice(0, text.indexOf(`${E}[`, 6 * MAX_STYLED_RUNS)));
    expect(under.querySelectorAll("span")).to.have.length(MAX_STYLED_RUNS);
    expect(under.textContent).to.equal(visible.slice(0, MAX_STYLED_RUNS));
  });

  it("renders markup as text", () => {
    const host = mount(`${E}[31m<img src=x onerror=alert(1)>${E}[0m<b>bold?</b>`);
    expect(host.querySelector("img, b")).to.equal(null);
    expect(host.textContent).to.equal("<img src=x onerror=alert(1)><b>bold?</b>");
  });

  it("property: any string renders only spans and allowed links, and its text is the input minus escapes", () => {
    const input = fc.array(fc.oneof(fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }), markup, escapes), {
      maxLength: 25,
    });
    fc.assert(
      fc.property(input, (parts) => {
        const text = parts.join("");
        const host = mount(text);
        const foreign = foreignElement(host);
        if (foreign !== undefined) throw new Error(`${JSON.stringify(text)} produced ${foreign}`);
        expect(host.textContent).to.equal(stripAnsi(text));
        expect(host.textContent).not.to.include(E);
      }),
      { numRuns: 300 },
    );
  });

  it("property: text with only well-formed sequences renders exactly its visible characters", () => {
    const plain = fc.oneof(fc.string({ unit: "grapheme" }), markup).map((s) => s.replaceAll(E, ""));
    const well = fc.constantFrom(
      `${E}[31m`,
      `${E}[38;5;200;1m`,
      `${E}[0m`,
      `${E}]8;;https://a.test/${E}\\`,
      `${E}]8;;\u0007`,
      `${E}[?25h`,
    );
    const tokens = fc.array(
      fc.oneof(
        plain.map((t) => [t, t] as const),
        well.map((s) => [s, ""] as const),
      ),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(tokens, (list) => {
        const host = mount(list.map(([raw]) => raw).join(""));
        expect(host.textContent).to.equal(list.map(([, visible]) => visible).join(""));
      }),
      { numRuns: 300 },
    );
  });
});
