/**
 * A message pi refuses is never lost silently: pi-prompt shows pi's own error beside the text it keeps for a retry,
 * accessibly (an alert), once (not also as a toast), and clears it when the user edits or sends again.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../src/elements/prompt/define.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

/** pi's own text (0.73.1 and 1.6.0 alike: formatNoApiKeyFoundMessage). */
const NO_KEY =
  "No API key found for the selected model.\n\nUse /login to log into a provider via OAuth or API key. See:\n  /pi/docs/providers.md\n  /pi/docs/models.md";
/** What pi-prompt says instead of /login, which a page cannot run. */
const LOGIN_ADVICE =
  "/login works only in pi's own terminal. Sign in there (run pi in a terminal on the machine this pi runs on, then /login), or give the bridge the provider's API key in its environment; then restart pi-bridge so pi reads it.";
const field = (el: PiPrompt) => el.shadowRoot!.querySelector("textarea")!;
const alert = (el: PiPrompt) => el.shadowRoot!.querySelector<HTMLElement>("[part~=error]");

describe("pi-prompt when pi refuses a message", () => {
  let agent: FakeAgent;
  let el: PiPrompt;
  beforeEach(async () => {
    agent = new FakeAgent();
    agent.failing.add("prompt");
    agent.errors.set("prompt", NO_KEY);
    el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    field(el).focus();
  });
  afterEach(() => agent.session.close());

  it("shows pi's error as an alert, keeps the text, and adds no second notification", async () => {
    await sendKeys({ type: "hello pi" });
    await sendKeys({ press: "Enter" });
    await settle();
    const shown = alert(el)!;
    expect(shown.getAttribute("role")).to.equal("alert");
    expect(shown.textContent).to.equal(`Error: ${NO_KEY}${LOGIN_ADVICE}`);
    expect(shown.checkVisibility()).to.equal(true);
    // pi's advice to use /login, which only pi's terminal runs, is followed by what to do instead, on a line of its own.
    const advice = shown.querySelector<HTMLElement>("[part~=login-advice]")!;
    expect(advice.textContent).to.equal(LOGIN_ADVICE);
    expect(advice.checkVisibility()).to.equal(true);
    expect(getComputedStyle(advice).display).to.equal("block");
    expect(field(el).value).to.equal("hello pi");
    expect(agent.session.ui.getSnapshot().notifications).to.deep.equal([]);
  });

  it("says what to do instead of /login in the page's language", async () => {
    el.lang = "ja";
    await sendKeys({ type: "hello pi" });
    await sendKeys({ press: "Enter" });
    await settle();
    const advice = alert(el)!.querySelector<HTMLElement>("[part~=login-advice]")!;
    expect(advice.textContent).to.match(/^\/login は pi のターミナルでのみ使えます。/);
  });

  it("clears the error when the text changes, and sends the retry", async () => {
    await sendKeys({ type: "hello pi" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(alert(el)).to.not.equal(null);
    await sendKeys({ type: "!" });
    await el.updateComplete;
    expect(alert(el)).to.equal(null);
    agent.failing.delete("prompt");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands().at(-1)).to.deep.equal({ type: "prompt", message: "hello pi!" });
    expect(alert(el)).to.equal(null);
    expect(field(el).value).to.equal("");
  });

  it("shows a failed steer the same way", async () => {
    agent.send({ type: "agent_start" });
    await settle();
    agent.failing.add("steer");
    agent.errors.set("steer", "Cannot steer: the agent is compacting.");
    await sendKeys({ type: "faster" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(alert(el)!.textContent).to.equal("Error: Cannot steer: the agent is compacting.");
    expect(alert(el)!.querySelector("[part~=login-advice]")).to.equal(null);
    expect(field(el).value).to.equal("faster");
  });

  it("markup in pi's error is text", async () => {
    agent.errors.set("prompt", "<img src=x onerror=alert(1)>");
    await sendKeys({ type: "x" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(alert(el)!.querySelector("img")).to.equal(null);
    expect(alert(el)!.textContent).to.equal("Error: <img src=x onerror=alert(1)>");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe with the error shown in the ${theme} theme`, async () => {
      el.setAttribute("theme", theme);
      await sendKeys({ type: "hello" });
      await sendKeys({ press: "Enter" });
      await settle();
      await expect(el).to.be.accessible();
    });
  }
});
