/**
 * pi-markdown and pi-code-block on a page whose Content-Security-Policy has `script-src 'self'; style-src 'self'`:
 * no eval, no inline script, no style attribute. The highlighter loads (a same-origin module) and colours code
 * through the element's stylesheet, with zero violations.
 */
import { expect, waitUntil } from "@open-wc/testing";

type ScenarioWindow = Window & {
  cspViolations: { directive: string; blockedURI: string; sourceFile: string }[];
  renderMarkdownScenario?: () => Promise<Record<string, string>>;
};

const BOUND = { interval: 10, timeout: 8000 };

describe("pi-markdown under a strict CSP", () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it("renders Markdown and highlights a code block with zero CSP violations", async () => {
    frame = document.createElement("iframe");
    const loaded = new Promise((resolve) => frame?.addEventListener("load", resolve, { once: true }));
    frame.src = "/test/fixtures/csp/strict-markdown.html";
    document.body.append(frame);
    await loaded;
    const win = frame.contentWindow as ScenarioWindow;
    await waitUntil(() => win.renderMarkdownScenario !== undefined, "the fixture's module script ran", BOUND);
    const result = await win.renderMarkdownScenario!();
    expect(result.keyword).to.equal("const");
    // The light theme's keyword colour, from the stylesheet: a class, not a style attribute.
    expect(result["keyword.color"]).to.equal("rgb(0, 0, 224)");
    expect(result["cell.textAlign"]).to.equal("center");
    expect(win.cspViolations, JSON.stringify(win.cspViolations)).to.deep.equal([]);
  });
});
