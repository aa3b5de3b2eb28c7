/**
 * ANSI colours on a page whose Content-Security-Policy has `style-src 'self'`: a `style` attribute is blocked there,
 * so the elements must colour text through CSSOM. The fixture records every `securitypolicyviolation` from its first
 * script on; a control shows that a style attribute set by script is blocked and reported on the same page.
 */
import { expect, waitUntil } from "@open-wc/testing";

type ScenarioWindow = Window & {
  cspViolations: { directive: string; blockedURI: string; sourceFile: string }[];
  /** Set by the fixture's module script, which may still be loading when the frame's load event fires. */
  renderAnsiScenario?: () => Promise<Record<string, string>>;
  tryStyleAttribute: () => string;
};

/** Each wait ends well inside the test's 10 s, so a failure names what it waited for. */
const BOUND = { interval: 10, timeout: 4000 };

describe("ANSI colours under a strict style-src policy", () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it("renders 24-bit, 256-colour and inverse colours in every element with zero CSP violations", async () => {
    frame = document.createElement("iframe");
    const loaded = new Promise((resolve) => frame?.addEventListener("load", resolve, { once: true }));
    frame.src = "/test/fixtures/csp/strict-styles.html";
    document.body.append(frame);
    await loaded;
    const win = frame.contentWindow as ScenarioWindow;
    await waitUntil(() => win.renderAnsiScenario !== undefined, "the fixture's module script ran", BOUND);

    const colours = await win.renderAnsiScenario!();
    expect(colours).to.deep.equal({
      "status.color": "rgb(10, 20, 30)",
      "status.background": "rgb(200, 210, 220)",
      // Inverse: the 256-colour background (21, blue) becomes the text colour and the foreground (196, red) the fill.
      "widget.color": "rgb(0, 0, 255)",
      "widget.background": "rgb(255, 0, 0)",
      "notification.color": "rgb(40, 50, 60)",
      "notification.background": "rgb(250, 240, 230)",
    });
    expect(win.cspViolations, JSON.stringify(win.cspViolations)).to.deep.equal([]);

    // The control: the same page blocks a style attribute and reports it.
    expect(win.tryStyleAttribute(), "the style attribute is ignored").to.not.equal("rgb(1, 2, 3)");
    // The report is an event the browser queues as a task after the blocked attribute, so it is awaited, not assumed.
    await waitUntil(() => win.cspViolations.length > 0, "a report of the blocked style attribute", BOUND);
    expect(win.cspViolations.map((v) => v.directive)).to.deep.equal(["style-src-attr"]);
  });
});
