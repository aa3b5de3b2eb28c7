/**
 * The core on a page whose Content-Security-Policy is `script-src 'self'` (no 'unsafe-eval'): zod must never try
 * code generation there, and the page configures nothing for it (zod/mini's parsers are interpreted; the core sets
 * no zod option). The fixture pages record every `securitypolicyviolation` from their first script on. Two controls
 * prove the recording works: an eval on the page is blocked and reported, and classic zod's compiled objects are
 * reported on the same policy unless the page opts out with `z.config({ jitless: true })`, as the README advises.
 */

import { expect } from "@open-wc/testing";
import { engine } from "../../../test/support/engine.js";

interface Violation {
  directive: string;
  blockedURI: string;
  sourceFile: string;
}
type CspWindow = Window & {
  cspViolations: Violation[];
  tryEval: () => string;
  runScenario: () => Promise<{ sent: unknown[]; diagnostics: string[]; statuses: number; dialogs: string[] }>;
  runControl: () => unknown;
};

const CONTROL_SOURCE = "/test/fixtures/csp/record-violations.js";

async function openFrame(path: string): Promise<{ frame: HTMLIFrameElement; win: CspWindow }> {
  const frame = document.createElement("iframe");
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  frame.src = path;
  document.body.append(frame);
  await loaded;
  return { frame, win: frame.contentWindow as CspWindow };
}

/**
 * Runs the control eval and waits for its report. Violations are delivered in order, so once the control's has
 * arrived, every violation caused before it has been recorded too.
 */
async function controlEval(frame: HTMLIFrameElement, win: CspWindow): Promise<void> {
  const doc = frame.contentDocument!;
  const reported = new Promise<void>((resolve) => {
    const listener = (event: SecurityPolicyViolationEvent) => {
      if (!event.sourceFile.endsWith(CONTROL_SOURCE)) return;
      doc.removeEventListener("securitypolicyviolation", listener);
      resolve();
    };
    doc.addEventListener("securitypolicyviolation", listener);
  });
  expect(win.tryEval(), "the policy blocks eval").to.equal("EvalError");
  await reported;
}

/**
 * Whether this engine fires securitypolicyviolation for a blocked eval. Chromium and Firefox do; WebKit (measured
 * with WebKitGTK 2.50: eval and new Function throw EvalError, an inline script's violation is reported, eval's is
 * not) does not, so there a count of eval violations cannot be observed.
 */
async function reportsEvalViolations(): Promise<boolean> {
  return (await engine()).name !== "webkit";
}

describe("core under a strict Content-Security-Policy", () => {
  let frame: HTMLIFrameElement | undefined;
  afterEach(() => frame?.remove());

  it("runs a session over valid and invalid extension-UI traffic with zero CSP violations", async () => {
    const opened = await openFrame("/test/fixtures/csp/strict.html");
    frame = opened.frame;
    const { win } = opened;

    const result = await win.runScenario();
    // The session really did its work on this page.
    expect(result.dialogs).to.deep.equal(["i", "e"]);
    expect(result.statuses).to.equal(1);
    expect(result.diagnostics).to.have.members([
      "invalid-ui-request",
      "unsupported-ui-method",
      "invalid-ui-request",
      "invalid-json",
      "unknown-response-id",
    ]);
    expect(result.sent).to.deep.include({ type: "extension_ui_response", id: "bad-select", cancelled: true });
    expect(result.sent).to.deep.include({ type: "extension_ui_response", id: "custom", cancelled: true });
    expect(result.sent).to.deep.include({ type: "extension_ui_response", id: "s", value: "b" });

    if (!(await reportsEvalViolations())) {
      // WebKit blocks eval here too, but sends no report the page could count: the session's results above are
      // what can be checked there.
      expect(win.tryEval(), "the policy blocks eval").to.equal("EvalError");
      return;
    }
    await controlEval(frame, win);
    const violations = win.cspViolations;
    expect(violations, JSON.stringify(violations)).to.have.length(1);
    expect(violations[0]).to.include({ directive: "script-src", blockedURI: "eval" });
    expect(violations[0]?.sourceFile).to.match(/record-violations\.js$/);
  });

  it("control: classic zod in its default (JIT) configuration is reported on the same policy", async function (this: Mocha.Context) {
    // Where eval violations are never reported (WebKit), this control has nothing to observe.
    if (!(await reportsEvalViolations())) return this.skip();
    const opened = await openFrame("/test/fixtures/csp/zod-default.html");
    frame = opened.frame;
    expect(opened.win.runControl()).to.equal(true);
    await controlEval(frame, opened.win);
    const fromZod = opened.win.cspViolations.filter((violation) => !violation.sourceFile.endsWith(CONTROL_SOURCE));
    expect(fromZod, JSON.stringify(opened.win.cspViolations)).to.have.length.above(0);
    expect(fromZod[0]).to.include({ directive: "script-src", blockedURI: "eval" });
  });

  it("control: classic zod on a page that opts in to jitless, as the README advises, is not reported", async function (this: Mocha.Context) {
    // The eval control's own report is what this counts against (WebKit reports none).
    if (!(await reportsEvalViolations())) return this.skip();
    const opened = await openFrame("/test/fixtures/csp/zod-default.html?jitless");
    frame = opened.frame;
    expect(opened.win.runControl()).to.equal(true);
    await controlEval(frame, opened.win);
    expect(opened.win.cspViolations, JSON.stringify(opened.win.cspViolations)).to.have.length(1);
  });
});
