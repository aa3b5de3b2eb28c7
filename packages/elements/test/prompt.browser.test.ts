import { expect, fixture, html } from "@open-wc/testing";
import { conversationOf } from "@pi-elements/core/conversation";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/elements/prompt/define.js";
import "../src/elements/session/define.js";
import { pressCombo } from "../../../test/support/engine.js";
import { composition } from "../../../test/support/ime.js";
import type { PiPrompt, PromptSendDetail } from "../src/elements/prompt/prompt.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

const textarea = (el: PiPrompt) => el.shadowRoot!.querySelector("textarea")!;
const button = (el: PiPrompt, part: string) => el.shadowRoot!.querySelector<HTMLButtonElement>(`[part~="${part}"]`);
const sends = (el: HTMLElement) => {
  const details: PromptSendDetail[] = [];
  el.addEventListener("pi-send", (e) => details.push(e.detail));
  return details;
};

async function typeInto(el: PiPrompt, text: string) {
  textarea(el).focus();
  await sendKeys({ type: text });
  await el.updateComplete;
}

describe("pi-prompt standalone", () => {
  it("sends the typed text with Enter as a prompt, fires pi-send and clears", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt></pi-prompt>`);
    const events = sends(el);
    await typeInto(el, "hello pi");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(events).to.deep.equal([{ message: "hello pi", command: "prompt" }]);
    expect(textarea(el).value).to.equal("");
    expect(el.value).to.equal("");
  });

  it("inserts a new line with Shift+Enter and sends both lines", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt></pi-prompt>`);
    const events = sends(el);
    await typeInto(el, "one");
    await pressCombo("Shift+Enter");
    await sendKeys({ type: "two" });
    expect(events).to.have.length(0);
    expect(textarea(el).value).to.equal("one\ntwo");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(events).to.deep.equal([{ message: "one\ntwo", command: "prompt" }]);
  });

  it("sends with a click on the send button", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .value=${"by mouse"}></pi-prompt>`);
    const events = sends(el);
    button(el, "send")!.click();
    await settle();
    expect(events).to.deep.equal([{ message: "by mouse", command: "prompt" }]);
  });

  it("sends nothing for empty or blank text", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt></pi-prompt>`);
    const events = sends(el);
    textarea(el).focus();
    await sendKeys({ press: "Enter" });
    await sendKeys({ type: "   " });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(events).to.have.length(0);
    expect(textarea(el).value).to.equal("   ");
  });

  it("keeps the text when pi-send is cancelled", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .value=${"keep me"}></pi-prompt>`);
    el.addEventListener("pi-send", (e) => e.preventDefault());
    button(el, "send")!.click();
    await settle();
    expect(textarea(el).value).to.equal("keep me");
  });

  it("never sends on an Enter that commits an IME composition", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .value=${"にほんご"}></pi-prompt>`);
    const events = sends(el);
    const field = textarea(el);
    field.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, composed: true }),
    );
    field.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", keyCode: 229, bubbles: true, composed: true }));
    field.dispatchEvent(new CompositionEvent("compositionstart", { bubbles: true, composed: true }));
    field.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, composed: true }));
    await settle();
    expect(events).to.have.length(0);
    field.dispatchEvent(new CompositionEvent("compositionend", { bubbles: true, composed: true }));
    field.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", bubbles: true, composed: true, cancelable: true }),
    );
    await settle();
    expect(events).to.deep.equal([{ message: "にほんご", command: "prompt" }]);
  });

  for (const [language, name, committed] of [
    ["ja", "reading-convert-enter", "日本語"],
    ["zh", "pinyin-enter", "zhongwen"],
  ] as const) {
    it(`a real IME composition (${language}, ${name}) after text survives the re-renders it causes; Enter only commits it`, async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .value=${"訳: "}></pi-prompt>`);
      const events = sends(el);
      const field = textarea(el);
      field.focus();
      field.setSelectionRange(field.value.length, field.value.length);
      const ime = await composition(field, language, name);
      // Each key fires input events; the prompt re-renders with the new value while the composition is still open.
      const shown: string[] = [];
      const check = async (preedit: string | undefined) => {
        await el.updateComplete;
        if (preedit === undefined) return;
        shown.push(preedit);
        expect(el.value).to.equal(`訳: ${preedit}`);
      };
      await ime.play("compose", check);
      await ime.play("convert", check);
      expect(shown.length).to.be.greaterThan(2);
      await ime.play("enter");
      await settle();
      expect(events).to.have.length(0);
      await el.updateComplete;
      expect(field.value).to.equal(`訳: ${committed}`);
      expect(el.value).to.equal(`訳: ${committed}`);
      await sendKeys({ press: "Enter" });
      await settle();
      expect(events).to.deep.equal([{ message: `訳: ${committed}`, command: "prompt" }]);
    });
  }

  for (const page of ["ltr", "rtl"] as const) {
    it(`takes its text's direction in a ${page} page: "/two" reads left to right, Arabic right to left`, async () => {
      const wrapper = await fixture<HTMLElement>(html`<div dir=${page}><pi-prompt></pi-prompt></div>`);
      const el = wrapper.querySelector("pi-prompt")!;
      await el.updateComplete;
      const box = textarea(el);
      box.focus();
      await sendKeys({ type: "/two" });
      expect(box.matches(":dir(ltr)"), '"/two"').to.equal(true);
      box.value = "";
      box.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true }));
      el.value = "مرحبا /two";
      await el.updateComplete;
      expect(box.matches(":dir(rtl)"), "Arabic first").to.equal(true);
    });
  }

  it("does nothing while disabled", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt disabled .value=${"x"}></pi-prompt>`);
    const events = sends(el);
    expect(textarea(el).disabled).to.equal(true);
    expect(button(el, "send")!.disabled).to.equal(true);
    button(el, "send")!.click();
    await settle();
    expect(events).to.have.length(0);
  });

  it("names the field in the nearest language", async () => {
    const el = await fixture<PiPrompt>(html`<div lang="ja"><pi-prompt></pi-prompt></div>`);
    const prompt = el.querySelector("pi-prompt")!;
    await prompt.updateComplete;
    expect(textarea(prompt).getAttribute("aria-label")).to.equal("pi へのメッセージ");
    expect(button(prompt, "send")!.textContent).to.equal("送信");
  });
});

describe("pi-prompt with a session", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  it("is filled by set_editor_text, every time, even with the same text", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    agent.request("set_editor_text", { text: "from the agent" });
    await settle();
    expect(textarea(el).value).to.equal("from the agent");
    await typeInto(el, " and me");
    expect(textarea(el).value).to.equal("from the agent and me");
    agent.request("set_editor_text", { text: "from the agent" });
    await settle();
    expect(textarea(el).value).to.equal("from the agent");
  });

  it("puts markup from set_editor_text in as text, never as elements", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    const payload = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    agent.request("set_editor_text", { text: payload });
    await settle();
    expect(textarea(el).value).to.equal(payload);
    expect(el.shadowRoot!.querySelectorAll("img, script")).to.have.length(0);
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it("sends prompt through the session and clears once the agent accepted it", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    const events = sends(el);
    await typeInto(el, "run the tests");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands()).to.deep.equal([{ type: "prompt", message: "run the tests" }]);
    expect(events).to.deep.equal([{ message: "run the tests", command: "prompt" }]);
    expect(textarea(el).value).to.equal("");
  });

  it("keeps the text and fires pi-send-error when the agent rejects the command", async () => {
    agent.failing.add("prompt");
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    const errors: unknown[] = [];
    el.addEventListener("pi-send-error", (e) => errors.push(e.detail.message));
    await typeInto(el, "rejected");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(errors).to.deep.equal(["rejected"]);
    expect(textarea(el).value).to.equal("rejected");
  });

  it("does not send twice while a command is in flight", async () => {
    agent.silent.add("prompt");
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    await typeInto(el, "once");
    await sendKeys({ press: "Enter" });
    await settle();
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands()).to.deep.equal([{ type: "prompt", message: "once" }]);
    // aria-disabled while its command is in flight: it keeps a focus it has, and a press does nothing.
    expect(button(el, "send")!.getAttribute("aria-disabled")).to.equal("true");
    button(el, "send")!.click();
    await settle();
    expect(agent.commands()).to.deep.equal([{ type: "prompt", message: "once" }]);
  });

  it("shows its command is running from sending until pi answers it; a second Enter meanwhile sends nothing", async () => {
    agent.silent.add("prompt");
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    const base = el.shadowRoot!.querySelector("[part~=base]")!;
    const status = el.shadowRoot!.querySelector("[part~=status]")!;
    expect(status.textContent?.trim()).to.equal("");
    await typeInto(el, "/gate");
    await sendKeys({ press: "Enter" });
    await settle();
    expect(el.running).to.equal(true);
    expect(status.textContent?.trim()).to.equal("Running…");
    expect(status.getAttribute("role")).to.equal("status");
    expect(base.getAttribute("aria-busy")).to.equal("true");
    expect(textarea(el).value, "the text stays while it runs").to.equal("/gate");
    await sendKeys({ press: "Enter" }); // the second press of a double press
    await settle();
    expect(agent.commands().filter((command) => command.type === "prompt")).to.deep.equal([
      { type: "prompt", message: "/gate" },
    ]);
    // pi answers a slash command once it has run.
    const sent = agent.received.find((message) => message.type === "prompt")!;
    agent.send({ type: "response", command: "prompt", success: true, id: sent.id });
    await settle();
    expect(el.running).to.equal(false);
    expect(status.textContent?.trim()).to.equal("");
    expect(base.hasAttribute("aria-busy")).to.equal(false);
    expect(textarea(el).value).to.equal("");
  });

  it("steers with Enter, queues a follow-up with Alt+Enter and aborts with Escape while the agent streams", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    agent.send({ type: "agent_start" });
    await settle();
    expect(el.streaming).to.equal(true);
    expect(button(el, "send")).to.equal(null);
    expect(button(el, "steer")!.textContent).to.equal("Steer");
    await typeInto(el, "go left");
    await sendKeys({ press: "Enter" });
    await settle();
    await sendKeys({ type: "then tidy up" });
    await pressCombo("Alt+Enter");
    await settle();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(agent.commands()).to.deep.equal([
      { type: "steer", message: "go left" },
      { type: "follow_up", message: "then tidy up" },
      { type: "abort" },
    ]);
    agent.send({ type: "agent_end", messages: [] });
    await settle();
    expect(el.streaming).to.equal(false);
    await sendKeys({ type: "next" });
    await sendKeys({ press: "Escape" });
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands().slice(3)).to.deep.equal([{ type: "prompt", message: "next" }]);
  });

  it("a run that ended while the page was away: after the bridge's hello it is idle, and Enter sends a prompt, not a steer", async () => {
    // A conversation store on the page (a transcript makes one): it must not keep the run going either.
    const store = conversationOf(agent.session);
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    agent.send({ type: "agent_start" });
    await settle();
    expect(button(el, "steer")).to.not.equal(null);
    // The reconnect: the bridge's hello, and no agent_start in its replay (the run ended meanwhile).
    agent.send({ type: "pi-elements/hello", protocol: 1 });
    await settle();
    expect(el.streaming).to.equal(false);
    expect(store.getSnapshot().run.working).to.equal(false);
    expect(el.shadowRoot!.querySelector("[part~=status]")!.textContent?.trim()).to.equal("");
    await typeInto(el, "are you there?");
    await sendKeys({ press: "Enter" });
    await settle();
    const sent = agent.commands().filter((command) => command.type === "prompt" || command.type === "steer");
    expect(sent).to.deep.equal([{ type: "prompt", message: "are you there?" }]);
  });

  it("steers, follows up and stops with the mouse", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    agent.send({ type: "agent_start" });
    await settle();
    el.value = "a";
    await el.updateComplete;
    button(el, "steer")!.click();
    await settle();
    el.value = "b";
    await el.updateComplete;
    button(el, "follow-up")!.click();
    await settle();
    button(el, "abort")!.click();
    await settle();
    expect(agent.commands()).to.deep.equal([
      { type: "steer", message: "a" },
      { type: "follow_up", message: "b" },
      { type: "abort" },
    ]);
  });

  it("disables sending and says that the agent is gone once the session has ended", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session} .value=${"hello"}></pi-prompt>`);
    agent.client.close();
    await settle();
    const ended = el.shadowRoot!.querySelector('[part~="session-ended"]')!;
    expect(ended.getAttribute("role")).to.equal("alert");
    expect(ended.textContent).to.equal("The session has ended: the agent is gone.");
    expect(ended.checkVisibility()).to.equal(true);
    // Said once, by the alert: the polite status does not repeat it.
    expect(el.shadowRoot!.querySelector('[part~="status"]')!.textContent).to.equal("");
    expect(button(el, "send")!.disabled).to.equal(true);
    textarea(el).focus();
    await sendKeys({ press: "Enter" });
    await settle();
    expect(agent.commands()).to.deep.equal([]);
    expect(textarea(el).value).to.equal("hello");
  });

  describe("when the agent exits", () => {
    const alert = (el: PiPrompt) => el.shadowRoot!.querySelector<HTMLElement>('[part~="agent-exit"]');
    const exit = (fields: object = {}) =>
      agent.send({
        type: "pi-elements/agent_exit",
        code: 1,
        stderrTail: ["Error: boom", "  at main (pi.js:1:1)"],
        ...fields,
      });

    it("says so in an alert, keeps the stderr tail behind a disclosure, and sends nothing until it starts again", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session} .value=${"hello"}></pi-prompt>`);
      expect(alert(el)).to.equal(null);
      exit();
      await settle();
      const shown = alert(el)!;
      expect(shown.getAttribute("role")).to.equal("alert");
      expect(shown.querySelector("summary")!.textContent).to.equal("The agent exited (code 1)");
      const details = shown.querySelector("details")!;
      expect(details.open).to.equal(false);
      shown.querySelector("summary")!.click();
      expect(details.open).to.equal(true);
      expect(shown.querySelector('[part~="stderr"]')!.textContent).to.equal("Error: boom\n  at main (pi.js:1:1)");
      expect(el.canSend).to.equal(false);
      expect(button(el, "send")!.disabled).to.equal(true);
      textarea(el).focus();
      await sendKeys({ press: "Enter" });
      await settle();
      expect(agent.commands()).to.deep.equal([]);
      expect(textarea(el).value).to.equal("hello");
      agent.send({ type: "pi-elements/agent_start", pid: 42 });
      await settle();
      expect(alert(el)).to.equal(null);
      expect(button(el, "send")!.disabled).to.equal(false);
      await sendKeys({ press: "Enter" });
      await settle();
      expect(agent.commands()).to.deep.equal([{ type: "prompt", message: "hello" }]);
    });

    it("names the signal of a killed agent and shows plain text without a stderr tail", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      exit({ code: null, signal: "SIGKILL", stderrTail: [] });
      await settle();
      // The words, then the Restart button.
      expect(alert(el)!.textContent).to.equal("The agent exited (code SIGKILL)Restart pi");
      expect(alert(el)!.querySelector("details")).to.equal(null);
    });

    it("offers Restart: Enter on it asks the bridge once and says Restarting… with the focus kept; when pi is back the box has the focus", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session} .value=${"hello"}></pi-prompt>`);
      agent.silent.add("pi-elements/restart");
      exit({ restart: "on-request" });
      await settle();
      const restart = button(el, "restart-button")!;
      expect(restart.textContent).to.equal("Restart pi");
      expect(alert(el)!.contains(restart)).to.equal(true);
      restart.focus();
      await sendKeys({ press: "Enter" });
      await settle();
      const restarts = () => agent.received.filter((m) => m.type === "pi-elements/restart").length;
      expect(restarts()).to.equal(1);
      expect(restart.textContent).to.equal("Restarting…");
      expect(restart.getAttribute("aria-disabled")).to.equal("true");
      expect(el.shadowRoot!.activeElement, "the focus stays on the button").to.equal(restart);
      await sendKeys({ press: "Enter" });
      await settle();
      expect(restarts(), "a second press while it restarts asks nothing more").to.equal(1);
      // The bridge starts pi again.
      agent.send({ type: "pi-elements/agent_start", pid: 7 });
      await settle();
      expect(alert(el)).to.equal(null);
      expect(el.shadowRoot!.activeElement, "the focus goes to the box, not the page").to.equal(textarea(el));
      expect(button(el, "send")!.disabled).to.equal(false);
    });

    it("says pi stopped, not that it crashed, when it ended by itself (exit code 0)", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      exit({ code: 1, stderrTail: [], restart: "on-request" });
      await settle();
      const crashed = getComputedStyle(alert(el)!).borderInlineStartColor;
      agent.send({ type: "pi-elements/agent_start", pid: 3 });
      exit({ code: 0, stderrTail: [], restart: "on-request" });
      await settle();
      expect(alert(el)!.textContent).to.equal("pi has stopped (it ended by itself).Restart pi");
      // Not drawn as an error: the crash's red edge is not there.
      expect(getComputedStyle(alert(el)!).borderInlineStartColor).to.not.equal(crashed);
    });

    it("mid-run, with a conversation store on the page: no 'Working…' under the alert, and nothing offers Steer or Stop", async () => {
      conversationOf(agent.session);
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      agent.send({ type: "agent_start" });
      await settle();
      expect(el.shadowRoot!.querySelector("[part~=status]")!.textContent?.trim()).to.equal("Working…");
      exit();
      await settle();
      expect(alert(el)).to.not.equal(null);
      expect(el.shadowRoot!.querySelector("[part~=status]")!.textContent?.trim()).to.equal("");
      expect(button(el, "steer")).to.equal(null);
      expect(button(el, "abort")).to.equal(null);
    });

    it("under a bridge that restarts only with itself (--restart never) says so instead of offering a button", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      exit({ restart: "never" });
      await settle();
      expect(button(el, "restart-button")).to.equal(null);
      expect(alert(el)!.querySelector('[part~="restart-never"]')!.textContent).to.equal(
        "This bridge does not restart pi (--restart never): restart pi-bridge to start it again.",
      );
    });

    it("announces once: the same exit replayed after a reconnect changes nothing in the alert", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      exit();
      await settle();
      const shown = alert(el)!;
      const mutations: MutationRecord[] = [];
      const observer = new MutationObserver((records) => mutations.push(...records));
      observer.observe(shown, { subtree: true, childList: true, characterData: true, attributes: true });
      // What the bridge sends to a client that (re)connects while the agent is down.
      agent.send({ type: "pi-elements/hello", protocol: 1 });
      exit();
      await settle();
      mutations.push(...observer.takeRecords());
      observer.disconnect();
      expect(alert(el)).to.equal(shown);
      expect(mutations).to.deep.equal([]);
    });

    it("keeps showing the connection state beside the exit", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
      exit();
      await settle();
      agent.client.close();
      await settle();
      expect(el.shadowRoot!.querySelector('[part~="session-ended"]')!.textContent).to.equal(
        "The session has ended: the agent is gone.",
      );
      expect(alert(el)!.querySelector("summary")!.textContent).to.equal("The agent exited (code 1)");
    });

    it("says it in the nearest language", async () => {
      const wrapper = await fixture<HTMLElement>(
        html`<div lang="ja"><pi-prompt .session=${agent.session}></pi-prompt></div>`,
      );
      exit({ code: 2 });
      await settle();
      expect(alert(wrapper.querySelector("pi-prompt")!)!.querySelector("summary")!.textContent).to.equal(
        "エージェントが終了しました（コード 2）",
      );
    });

    for (const theme of ["light", "dark"] as const) {
      it(`passes axe with the exit shown, collapsed and expanded, in the ${theme} theme`, async () => {
        const el = await fixture<PiPrompt>(html`<pi-prompt theme=${theme} .session=${agent.session}></pi-prompt>`);
        exit();
        await settle();
        await expect(el).to.be.accessible();
        alert(el)!.querySelector("details")!.open = true;
        await expect(el).to.be.accessible();
        await executeServerCommand("screenshot", { name: `pi-prompt-agent-exit-${theme}`, selector: "pi-prompt" });
      });
    }
  });

  it("uses the session of an ancestor pi-session", async () => {
    const wrapper = await fixture<HTMLElement>(
      html`<pi-session .session=${agent.session}><div><pi-prompt></pi-prompt></div></pi-session>`,
    );
    const el = wrapper.querySelector("pi-prompt")!;
    agent.request("set_editor_text", { text: "via context" });
    await settle();
    expect(textarea(el).value).to.equal("via context");
    button(el, "send")!.click();
    await settle();
    expect(agent.commands()).to.deep.equal([{ type: "prompt", message: "via context" }]);
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe idle, streaming and disconnected in the ${theme} theme`, async () => {
      const el = await fixture<PiPrompt>(
        html`<pi-prompt theme=${theme} .session=${agent.session} .value=${"draft"}></pi-prompt>`,
      );
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-prompt-${theme}`, selector: "pi-prompt" });
      agent.send({ type: "agent_start" });
      await settle();
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-prompt-streaming-${theme}`, selector: "pi-prompt" });
      agent.client.close();
      await settle();
      await expect(el).to.be.accessible();
    });
  }
});
