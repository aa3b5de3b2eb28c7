import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { executeServerCommand } from "@web/test-runner-commands";
import type { PiCodeBlock } from "../src/elements/code-block/code-block.js";
import "../src/elements/markdown/define.js";
import type { PiMarkdown } from "../src/elements/markdown/markdown.js";

const mount = (text: string, streaming = false) =>
  fixture<PiMarkdown>(html`<pi-markdown .text=${text} ?streaming=${streaming}></pi-markdown>`);
const root = (el: PiMarkdown) => el.shadowRoot!.querySelector<HTMLElement>('[part~="base"]')!;
const $ = <T extends Element = HTMLElement>(el: PiMarkdown, selector: string) =>
  el.shadowRoot!.querySelector<T>(selector);
const $$ = <T extends Element = HTMLElement>(el: PiMarkdown, selector: string) => [
  ...el.shadowRoot!.querySelectorAll<T>(selector),
];

/**
 * Every resource the page requested, from an observer (the performance timeline's buffer holds only 250 entries, and
 * the test server's modules fill it).
 */
const requested: string[] = [];
const resources = new PerformanceObserver((list) => requested.push(...list.getEntries().map((entry) => entry.name)));
resources.observe({ type: "resource", buffered: true });
const requests = () => {
  requested.push(...resources.takeRecords().map((entry) => entry.name));
  return requested;
};
/** Requests for anything not served by the test server itself. */
const foreignRequests = () => requests().filter((name) => !name.startsWith(location.origin));

const everything = `# Heading 1
## Heading 2
### Heading 3

A paragraph with *emphasis*, **strong**, ~~struck~~, \`code\`, a [link](https://example.com/a?b=1&amp;c=2 "Title")
and an autolink <https://example.org> and www.example.net, and a break  
after it.

- one
- two
  - nested
    1. deep
- [x] done
- [ ] open

3. three
4. four

> a quote
>
> > nested quote

| Left | Centre | Right |
|:-----|:------:|------:|
| a    | **b**  | c     |

---

\`\`\`ts
const x = 1;
\`\`\`

![a diagram](https://images.example.com/diagram.png)
`;

describe("pi-markdown: heading-level", () => {
  it("makes # the heading-level given and each deeper heading one below it, capped at h6; a wrong value is 1", async () => {
    const el = await mount("# one\n\n## two\n\n### three\n\n###### six");
    const tags = () => $$(el, "h1, h2, h3, h4, h5, h6").map((h) => h.localName);
    expect(tags()).to.deep.equal(["h1", "h2", "h3", "h6"]);
    el.headingLevel = 4;
    await el.updateComplete;
    expect(tags()).to.deep.equal(["h4", "h5", "h6", "h6"]);
    expect($$(el, "h4, h5, h6").map((h) => h.textContent)).to.deep.equal(["one", "two", "three", "six"]);
    el.setAttribute("heading-level", "9");
    await el.updateComplete;
    expect(tags()).to.deep.equal(["h1", "h2", "h3", "h6"]);
  });

  it("puts a text's shallowest heading at heading-level when it starts deeper than # (a model's ## answer)", async () => {
    const el = await mount("## Found\n\n### Detail\n\n> #### quoted\n\n## Next");
    el.headingLevel = 4;
    await el.updateComplete;
    expect($$(el, "h1, h2, h3, h4, h5, h6").map((h) => h.localName)).to.deep.equal(["h4", "h5", "h6", "h4"]);
    // A # arriving later (the text streams on) takes the level; the rest move down one.
    el.text += "\n\n# Summary";
    await el.updateComplete;
    expect($$(el, "h1, h2, h3, h4, h5, h6").map((h) => h.localName)).to.deep.equal(["h5", "h6", "h6", "h5", "h4"]);
  });
});

describe("pi-markdown: every construct", () => {
  it("renders headings, inline styles, links, lists, task lists, quotes, tables, rules, code and images", async () => {
    const el = await mount(everything);
    expect($$(el, "h1, h2, h3").map((h) => [h.localName, h.textContent])).to.deep.equal([
      ["h1", "Heading 1"],
      ["h2", "Heading 2"],
      ["h3", "Heading 3"],
    ]);
    const p = $(el, "p")!;
    expect(p.querySelector("em")?.textContent).to.equal("emphasis");
    expect(p.querySelector("strong")?.textContent).to.equal("strong");
    expect(p.querySelector("del")?.textContent).to.equal("struck");
    expect(p.querySelector('[part~="code-span"]')?.textContent).to.equal("code");
    expect(p.querySelector("br")).to.not.equal(null);
    const links = [...p.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href"), a.target, a.rel]);
    expect(links).to.deep.equal([
      ["link", "https://example.com/a?b=1&c=2", "_blank", "noopener noreferrer"],
      ["https://example.org", "https://example.org/", "_blank", "noopener noreferrer"],
      ["www.example.net", "http://www.example.net/", "_blank", "noopener noreferrer"],
    ]);
    expect(p.querySelector("a")?.title).to.equal("Title");

    const nested = $(el, "ul > li > ul > li")!;
    expect(nested.textContent).to.match(/^nested/);
    expect(nested.querySelector("ol > li")?.textContent).to.equal("deep");
    const tasks = $$<HTMLInputElement>(el, 'input[part~="task"]');
    expect(tasks.map((t) => [t.checked, t.disabled, t.getAttribute("aria-label")])).to.deep.equal([
      [true, true, "Task"],
      [false, true, "Task"],
    ]);
    expect($(el, "ol[start]")?.getAttribute("start")).to.equal("3");
    expect($(el, "blockquote blockquote")?.textContent?.trim()).to.equal("nested quote");

    const region = $(el, '[part~="table-region"]')!;
    expect([region.getAttribute("role"), region.tabIndex, region.getAttribute("aria-label")]).to.deep.equal([
      "group",
      0,
      "Table",
    ]);
    expect($$(el, "th").map((th) => [th.textContent, getComputedStyle(th).textAlign])).to.deep.equal([
      ["Left", "left"],
      ["Centre", "center"],
      ["Right", "right"],
    ]);
    expect($(el, "td strong")?.textContent).to.equal("b");
    expect($(el, "hr")).to.not.equal(null);

    const code = $<PiCodeBlock>(el, "pi-code-block")!;
    expect([code.code, code.language, code.streaming]).to.deep.equal(["const x = 1;", "ts", false]);

    // The image: a link to its URL, named by its alt text, and no <img>.
    expect($(el, "img")).to.equal(null);
    const image = $<HTMLAnchorElement>(el, '[part~="image-link"]')!;
    expect([image.textContent, image.href]).to.deep.equal([
      "Image: a diagram",
      "https://images.example.com/diagram.png",
    ]);
    expect(foreignRequests()).to.deep.equal([]);
  });

  it("gives every block dir=auto, so Arabic, Hebrew, Japanese and Chinese read in their own direction", async () => {
    const el = await fixture<PiMarkdown>(html`<div dir="ltr" style="inline-size: 30rem">
      <pi-markdown
        .text=${"مرحبا بالعالم، هذه فقرة.\n\nשלום עולם\n\n日本語の段落です。\n\n中文段落。\n\n- عنصر\n- English item\n\n> اقتباس\n\n| عمود | col |\n|---|---|\n| خلية | cell |"}
      ></pi-markdown>
    </div>`).then((div) => div.querySelector<PiMarkdown>("pi-markdown")!);
    await el.updateComplete;
    const direction = (e: Element) => (e.matches(":dir(rtl)") ? "rtl" : "ltr");
    const [arabic, hebrew, japanese, chinese] = $$(el, "p");
    expect([arabic, hebrew, japanese, chinese].map((p) => p!.getAttribute("dir"))).to.deep.equal([
      "auto",
      "auto",
      "auto",
      "auto",
    ]);
    expect([arabic, hebrew, japanese, chinese].map((p) => direction(p!))).to.deep.equal(["rtl", "rtl", "ltr", "ltr"]);
    expect($$(el, "li").map(direction)).to.deep.equal(["rtl", "ltr"]);
    expect(direction($(el, "blockquote")!)).to.equal("rtl");
    expect($$(el, "th, td").map(direction)).to.deep.equal(["rtl", "ltr", "rtl", "ltr"]);
    el.id = "rtl-shot";
    await executeServerCommand("screenshot", { name: "markdown-rtl-cjk", selector: "#rtl-shot" });
  });
});

describe("pi-markdown: hostile input", () => {
  it("shows raw HTML as text: no element, no script, no handler", async () => {
    const hostile = `<img src=x onerror="window.injected=1">

<script>window.injected = 2</script>

inline <b onclick="window.injected=3">bold?</b> <iframe src="https://evil.example/"></iframe>

<style>:host { display: none }</style>`;
    const el = await mount(hostile);
    expect($$(el, "img, script, iframe, b, style")).to.deep.equal([]);
    expect(root(el).textContent).to.contain('<img src=x onerror="window.injected=1">');
    expect(root(el).textContent).to.contain("<script>window.injected = 2</script>");
    expect(root(el).textContent).to.contain('<b onclick="window.injected=3">bold?</b>');
    expect((window as { injected?: number }).injected).to.equal(undefined);
    expect(foreignRequests()).to.deep.equal([]);
  });

  it("makes links only of http(s) and mailto, whatever the encoding of the scheme", async () => {
    const destinations = [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "jav&#x09;ascript:alert(1)",
      "jav&#9;ascript:alert(1)",
      "&#106;avascript:alert(1)",
      "javascript&colon;alert(1)",
      "java%0ascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "tel:+15555550100",
      "ftp://example.com/file",
      "/relative/path",
      "//evil.example/x",
    ];
    const controlled = ["java\u0000script:alert(1)", "\u0001javascript:alert(1)", "java\u200bscript:alert(1)"];
    const text = [...destinations.map((d, i) => `[bad ${i}](${d})`), ...controlled.map((d, i) => `[ctl ${i}](<${d}>)`)]
      .concat("[good](https://example.com) [mail](mailto:someone@example.com) [ent](&#104;ttps://example.com/e)")
      .join("\n\n");
    const el = await mount(text);
    const hrefs = $$<HTMLAnchorElement>(el, "a").map((a) => [a.textContent, a.getAttribute("href")]);
    expect(hrefs).to.deep.equal([
      ["good", "https://example.com/"],
      ["mail", "mailto:someone@example.com"],
      ["ent", "https://example.com/e"],
    ]);
    // The rejected links still show their text.
    expect(root(el).textContent).to.contain("bad 0").and.contain("bad 13").and.contain("ctl 2");
  });

  it("shows remote images as links and requests nothing; images=allow loads http(s) images only", async () => {
    const text = `![tracker](https://evil.example/pixel.png?secret=42) ![inline](data:image/png;base64,iVBORw0KGgo=)

![js](javascript:alert(1))`;
    const el = await mount(text);
    expect($$(el, "img")).to.deep.equal([]);
    expect($$<HTMLAnchorElement>(el, "a").map((a) => a.href)).to.deep.equal([
      "https://evil.example/pixel.png?secret=42",
    ]);
    expect(root(el).textContent).to.contain("Image: inline").and.contain("Image: js");
    expect(foreignRequests()).to.deep.equal([]);

    // The control: opting in loads an image (from the test server, so the request can be seen), and only http(s).
    const src = `${location.origin}/test-results/no-such-image.png?allowed`;
    const allowed = await fixture<PiMarkdown>(
      html`<pi-markdown images="allow" .text=${`![a](${src}) ![b](data:image/png;base64,iVBORw0KGgo=)`}></pi-markdown>`,
    );
    const images = [...allowed.shadowRoot!.querySelectorAll("img")];
    expect(images.map((img) => [img.getAttribute("src"), img.alt, img.referrerPolicy])).to.deep.equal([
      [src, "a", "no-referrer"],
    ]);
    // The image loads lazily: in view, it is requested (the test server answers 404, so it ends in an error event).
    const image = images[0]!;
    const settled = new Promise((resolve) => {
      image.addEventListener("load", resolve, { once: true });
      image.addEventListener("error", resolve, { once: true });
    });
    image.scrollIntoView();
    await settled;
    await waitUntil(() => requests().includes(src), "the allowed image is in the resource timeline");
  });

  it("renders a 1 MB code block as plain text, without highlighting it", async () => {
    const big = `${"let value = 'x';\n".repeat(62_000)}`;
    const el = await mount(`\`\`\`js\n${big}\`\`\`\n`);
    const block = $<PiCodeBlock>(el, "pi-code-block")!;
    await block.updateComplete;
    const code = block.shadowRoot!.querySelector("code")!;
    expect(code.textContent!.length).to.equal(big.length - 1);
    // No token coloured (the code shows in chunks of lines, none of them highlighted).
    expect(code.querySelectorAll("[class*='hljs-']").length).to.equal(0);
    expect(block.highlighted).to.equal(false);
  });

  it("bounds deeply nested quotes and lists: 16 levels, then the rest as text; no crash on 20,000", async () => {
    const quotes = `${"> ".repeat(100)}deep`;
    // Past the lexing limit (64 columns of nesting) the line shows as written; without it, 16 levels are drawn.
    const limited = await mount(quotes);
    expect($$(limited, "blockquote").length).to.equal(0);
    expect(root(limited).textContent).to.contain(quotes);
    const el = await fixture<PiMarkdown>(
      html`<pi-markdown .text=${quotes} .limits=${{ nestingColumns: Number.POSITIVE_INFINITY }}></pi-markdown>`,
    );
    expect($$(el, "blockquote").length).to.equal(17);
    expect(root(el).textContent).to.contain("deep");

    const list = Array.from({ length: 60 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n");
    const listed = await mount(list);
    expect($$(listed, "li").length).to.be.at.most(17);
    expect(root(listed).textContent).to.contain("level 59");

    const huge = await mount(`${">".repeat(20_000)} x`);
    expect(root(huge).textContent).to.contain("x");
    expect(huge.shadowRoot!.querySelectorAll("*").length).to.be.below(50);
  });
});

describe("pi-markdown: streaming", () => {
  it("repairs the open block: an unterminated **bold shows bold, an open fence shows as a streaming code block", async () => {
    const el = await mount("Some **bold", true);
    expect($(el, "strong")?.textContent).to.equal("bold");
    el.text = "Some **bold** text\n\n```py\nprint(1)";
    await el.updateComplete;
    const block = $<PiCodeBlock>(el, "pi-code-block")!;
    expect([block.code, block.language, block.streaming]).to.deep.equal(["print(1)", "py", true]);
    el.text += "\n```\n\nDone.";
    el.streaming = false;
    await el.updateComplete;
    expect(block.streaming).to.equal(false);
    expect($(el, "pi-code-block")).to.equal(block);
  });

  it("renders only the block that changed: earlier blocks keep their nodes and see no mutation", async () => {
    const el = await mount("# Title\n\nFirst paragraph.\n\n- a list\n- of items\n\nThe last", true);
    const [heading, first, list] = [$(el, "h1")!, $(el, "p")!, $(el, "ul")!];
    const mutated = new Set<Node>();
    const observer = new MutationObserver((records) => {
      for (const record of records) mutated.add(record.target);
    });
    observer.observe(root(el), { subtree: true, childList: true, characterData: true, attributes: true });
    for (const word of [" paragraph", " grows,", " word", " by", " word.\nAnd a line."]) {
      el.text += word;
      await el.updateComplete;
    }
    for (const record of observer.takeRecords()) mutated.add(record.target);
    observer.disconnect();
    expect([$(el, "h1"), $(el, "p"), $(el, "ul")]).to.deep.equal([heading, first, list]);
    const inEarlier = [...mutated].filter((node) => [heading, first, list].some((block) => block.contains(node)));
    expect(inEarlier).to.deep.equal([]);
    expect([...mutated].length).to.be.greaterThan(0);
    expect($$(el, "p")[1]?.textContent).to.equal("The last paragraph grows, word by word.\nAnd a line.");
  });
});

describe("pi-markdown: a long stream", () => {
  it("keeps every block's nodes from the update that created it to the end, across 100 blocks", async () => {
    const el = await mount("", true);
    const seen: Element[] = [];
    let text = "";
    for (let i = 0; i < 100; i++) {
      for (const piece of [`Paragraph ${i}`, " grows", " a little.\n\n"]) {
        text += piece;
        el.text = text;
        await el.updateComplete;
      }
      const paragraphs = $$(el, "p");
      expect(paragraphs.length).to.equal(i + 1);
      expect(paragraphs.slice(0, seen.length)).to.deep.equal(seen);
      seen.push(paragraphs[i]!);
    }
    el.streaming = false;
    await el.updateComplete;
    expect($$(el, "p")).to.deep.equal(seen);
    expect(seen[99]!.textContent).to.equal("Paragraph 99 grows a little.");
  });
});

describe("pi-markdown: accessibility and looks", () => {
  it("draws the text of a nested list, a quoted paragraph and a loose item's paragraph at the size of a paragraph", async () => {
    const el = await mount(
      "A paragraph.\n\n- one\n  - two\n    - three\n      - four\n\n> quoted\n> > quoted twice\n\n1. loose\n\n   item\n",
    );
    const size = (element: Element) => getComputedStyle(element).fontSize;
    const paragraph = size($(el, ".group > p")!);
    const texts = $$(el, "li, blockquote p, li > p");
    expect(texts.length, "four items, two quoted paragraphs, a loose item and its two paragraphs").to.equal(9);
    expect(texts.map((text) => `${text.textContent!.trim().split("\n")[0]}: ${size(text)}`)).to.deep.equal(
      texts.map((text) => `${text.textContent!.trim().split("\n")[0]}: ${paragraph}`),
    );
    // Smaller than the page's text, as before: the message's own size is set once, on its top-level blocks.
    expect(Number.parseFloat(paragraph)).to.be.below(Number.parseFloat(getComputedStyle(el).fontSize));
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme, and takes a screenshot`, async () => {
      const el = await fixture<PiMarkdown>(
        html`<pi-markdown id="shot" theme=${theme} style="inline-size: 36rem; padding: 1rem; background: ${theme === "dark" ? "#1e1e24" : "#fff"}" .text=${everything}></pi-markdown>`,
      );
      const block = $<PiCodeBlock>(el, "pi-code-block")!;
      await waitUntil(() => block.highlighted, "the code is highlighted", { timeout: 8000 });
      await block.updateComplete;
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `markdown-${theme}`, selector: "#shot" });
    });
  }
});
