import { expect, fixture, html, oneEvent, waitUntil as waitUntilOwc } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/elements/session-actions/define.js";
import type { PiSessionActions } from "../src/elements/session-actions/session-actions.js";
import { ControlsAgent, VERSIONS } from "./support/controls-agent.js";

/**
 * @open-wc's waitUntil with a 10 s limit (its default is 1 s): the store notifies once per animation frame, and with
 * three engines sharing two cores a frame can take longer than that.
 */
const waitUntil = (condition: () => unknown, message?: string) => waitUntilOwc(condition, message, { timeout: 10_000 });

const $ = (el: PiSessionActions, selector: string) => el.shadowRoot!.querySelector<HTMLElement>(selector);
const button = (el: PiSessionActions, action: string) => $(el, `[part~="${action}-button"]`) as HTMLButtonElement;
/** A button that cannot act now: aria-disabled, so it keeps focus (a native disabled button would drop it). */
const off = (b: HTMLButtonElement) => b.getAttribute("aria-disabled") === "true";
const dialog = (el: PiSessionActions) => $(el, "dialog") as HTMLDialogElement | null;
const status = (el: PiSessionActions) => $(el, '[part="status"]')!.textContent;
const deepActive = () => {
  let node = document.activeElement;
  while (node?.shadowRoot?.activeElement) node = node.shadowRoot.activeElement;
  return node;
};

async function mount(version: (typeof VERSIONS)[number], lang = "en") {
  const agent = await ControlsAgent.start(version);
  const el = await fixture<PiSessionActions>(
    html`<pi-session-actions .session=${agent.session} lang=${lang}></pi-session-actions>`,
  );
  await waitUntil(() => agent.commands("get_state").length > 0, "the store connects");
  await el.updateComplete;
  return { agent, el };
}

async function openDialog(el: PiSessionActions, action: string) {
  button(el, action).focus();
  button(el, action).click();
  await waitUntil(() => dialog(el)?.open, `the ${action} dialog opens`);
}

/** Waits for the commands of `types` sent after `from` to be `expected`. */
async function sentAfter(agent: ControlsAgent, from: number, types: string[], expected: object[]) {
  await waitUntil(() => agent.sent.slice(from).filter((c) => types.includes(c.type)).length >= expected.length);
  expect(agent.sent.slice(from).filter((c) => types.includes(c.type))).to.deep.equal(expected);
}

describe("pi-session-actions", () => {
  it("is a named group of buttons, each saying it opens a dialog (export acts at once)", async () => {
    const { el } = await mount("1.6.0");
    const group = $(el, '[part~="base"]')!;
    expect([group.getAttribute("role"), group.getAttribute("aria-label")]).to.deep.equal(["group", "Session"]);
    const buttons = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part~="button"]')];
    expect(buttons.map((b) => b.textContent!.trim())).to.deep.equal([
      "New session",
      "Compact…",
      "Name…",
      "Fork…",
      "Export HTML",
    ]);
    expect(buttons.map((b) => b.getAttribute("aria-haspopup"))).to.deep.equal([
      "dialog",
      "dialog",
      "dialog",
      "dialog",
      null,
    ]);
    expect(buttons.every((b) => !b.disabled && !off(b))).to.equal(true);
  });

  for (const version of VERSIONS) {
    it(`asks before a new session; Esc cancels and gives focus back; confirmed, sends {type: "new_session"} (pi ${version})`, async () => {
      const { agent, el } = await mount(version);
      const from = agent.sent.length;
      await openDialog(el, "new");
      expect(dialog(el)!.getAttribute("aria-labelledby")).to.equal("dialog-title");
      expect($(el, "#dialog-title")!.textContent).to.equal("Start a new session?");
      await waitUntil(() => dialog(el)!.contains(el.shadowRoot!.activeElement), "focus is in the dialog");
      await sendKeys({ press: "Escape" });
      await waitUntil(() => !dialog(el), "Esc closes the dialog");
      await waitUntil(() => deepActive() === button(el, "new"), "focus goes back to the button");
      expect(agent.commands("new_session")).to.have.length(0);
      await openDialog(el, "new");
      const confirm = $(el, "dialog .danger")!;
      expect(confirm.textContent).to.equal("Start new session");
      // The safe choice has focus: a stray Enter cancels.
      const cancel = $(el, 'dialog button[type="button"]')!;
      expect(cancel.textContent).to.equal("Cancel");
      await waitUntil(() => el.shadowRoot!.activeElement === cancel, "Cancel has focus");
      await sendKeys({ press: "Enter" });
      await waitUntil(() => !dialog(el), "Enter on Cancel closes the dialog");
      await waitUntil(() => deepActive() === button(el, "new"), "focus goes back to the button");
      expect(agent.commands("new_session")).to.have.length(0);
      await openDialog(el, "new");
      await waitUntil(() => el.shadowRoot!.activeElement?.textContent === "Cancel", "Cancel has focus");
      await sendKeys({ press: "Tab" });
      await waitUntil(() => el.shadowRoot!.activeElement === $(el, "dialog .danger"), "Tab reaches the confirmation");
      await sendKeys({ press: "Enter" });
      await sentAfter(agent, from, ["new_session"], [{ type: "new_session" }]);
      await waitUntil(() => status(el) === "New session: done.");
      // The store reset and asked pi again, under the core's rule (get_state after new_session).
      const at = agent.sent.findIndex((c, i) => i >= from && c.type === "new_session");
      await waitUntil(() => agent.sent.slice(at).some((c) => c.type === "get_state"));
      await waitUntil(() => deepActive() === button(el, "new"));
    });

    it(`compacts with the instructions typed, or without any (pi ${version})`, async () => {
      const { agent, el } = await mount(version);
      const from = agent.sent.length;
      await openDialog(el, "compact");
      await waitUntil(() => el.shadowRoot!.activeElement?.id === "instructions", "the instructions have focus");
      await sendKeys({ type: "Focus on the tests" });
      ($(el, 'dialog [type="submit"]') as HTMLButtonElement).click();
      await sentAfter(agent, from, ["compact"], [{ type: "compact", customInstructions: "Focus on the tests" }]);
      await waitUntil(() => !el.busy && !dialog(el));
      await openDialog(el, "compact");
      ($(el, 'dialog [type="submit"]') as HTMLButtonElement).click();
      await sentAfter(
        agent,
        from,
        ["compact"],
        [{ type: "compact", customInstructions: "Focus on the tests" }, { type: "compact" }],
      );
    });

    it(`names the session: the name field starts with pi's name, Save waits for a name (pi ${version})`, async () => {
      const { agent, el } = await mount(version);
      const from = agent.sent.length;
      await openDialog(el, "name");
      const field = $(el, "#session-name") as HTMLInputElement;
      expect(field.value).to.equal("");
      expect(($(el, 'dialog [type="submit"]') as HTMLButtonElement).disabled).to.equal(true);
      await waitUntil(() => el.shadowRoot!.activeElement === field);
      await sendKeys({ type: "  my work  " });
      await el.updateComplete;
      await sendKeys({ press: "Enter" });
      await sentAfter(agent, from, ["set_session_name"], [{ type: "set_session_name", name: "my work" }]);
      await waitUntil(() => !el.busy);
      // The name shows, once pi has it.
      await waitUntil(() => $(el, '[part~="session-name"]')?.textContent === "Session: my work", "the name shows");
      await openDialog(el, "name");
      expect(($(el, "#session-name") as HTMLInputElement).value).to.equal("my work");
    });

    it(`forks from a message pi lists (get_fork_messages, then fork) and tells the page its text (pi ${version})`, async () => {
      const { agent, el } = await mount(version);
      const recorded = (agent.recordedAnswer("get_fork_messages") as { data: { messages: { entryId: string }[] } }).data
        .messages[0]!;
      const from = agent.sent.length;
      await openDialog(el, "fork");
      await waitUntil(() => $(el, '[part~="fork-option"]'), "pi's messages");
      const option = $(el, '[part~="fork-option"]')!;
      expect(option.textContent).to.equal("First question");
      const forked = oneEvent(el, "pi-fork");
      option.click();
      expect((await forked).detail).to.deep.equal({ text: "First question" });
      expect(agent.sent.slice(from).filter((c) => c.type === "get_fork_messages" || c.type === "fork")).to.deep.equal([
        { type: "get_fork_messages" },
        { type: "fork", entryId: recorded.entryId },
      ]);
    });
  }

  it("shows a message's markup as text, never as HTML", async () => {
    const { agent, el } = await mount("1.6.0");
    agent.forkMessages = [{ entryId: "x1", text: '<img src=x onerror="window.hacked=1">\nsecond line' }];
    await openDialog(el, "fork");
    await waitUntil(() => $(el, '[part~="fork-option"]'));
    const option = $(el, '[part~="fork-option"]')!;
    expect(option.querySelector("img")).to.equal(null);
    expect(option.textContent).to.equal('<img src=x onerror="window.hacked=1">\nsecond line');
  });

  it("says when there is nothing to fork from", async () => {
    const { agent, el } = await mount("1.6.0");
    agent.forkMessages = [];
    await openDialog(el, "fork");
    await waitUntil(() => $(el, "dialog [part~=status]")?.textContent === "There is no earlier message to fork from.");
  });

  // The focus stays on the button whose action runs (and after a dialog, goes back to it): never to the page's body.
  for (const action of ["new", "compact", "name", "fork", "export"] as const) {
    it(`keeps the focus on ${action}'s button while its action runs and after it is done`, async () => {
      const { agent, el } = await mount("1.6.0");
      const from = agent.sent.length;
      const sent = {
        new: "new_session",
        compact: "compact",
        name: "set_session_name",
        fork: "fork",
        export: "export_html",
      }[action];
      // pi's answer is held back so the action is seen running.
      const release = agent.hold(sent);
      button(el, action).focus();
      await sendKeys({ press: "Enter" });
      if (action !== "export") {
        await waitUntil(() => dialog(el)?.open, `the ${action} dialog opens`);
        if (action === "name") await sendKeys({ type: "work" });
        // Compact's field takes Enter as a new line: its button is pressed instead.
        if (action === "compact") $(el, 'dialog [part~="confirm-button"]')!.focus();
        if (action === "new") await sendKeys({ press: "Tab" });
        if (action === "fork") {
          await waitUntil(() => $(el, '[part~="fork-option"]'), "pi's messages");
          $(el, '[part~="fork-option"]')!.focus();
        }
        await el.updateComplete;
        await sendKeys({ press: "Enter" });
      }
      await waitUntil(() => agent.sent.slice(from).some((c) => c.type === sent), `${sent} sent`);
      await waitUntil(() => el.busy === action && off(button(el, action)), `${action} runs`);
      expect(deepActive()).to.equal(button(el, action));
      // A press while it runs does nothing.
      await sendKeys({ press: "Enter" });
      await el.updateComplete;
      expect(dialog(el)).to.equal(null);
      expect(agent.sent.slice(from).filter((c) => c.type === sent)).to.have.length(1);
      release();
      await waitUntil(() => !el.busy && !off(button(el, action)), `${action} done`);
      expect(deepActive()).to.equal(button(el, action));
    });
  }

  it("exports to HTML and shows where pi wrote it", async () => {
    const { agent, el } = await mount("0.73.1");
    const from = agent.sent.length;
    button(el, "export").click();
    await sentAfter(agent, from, ["export_html"], [{ type: "export_html" }]);
    await waitUntil(() => status(el) === "Exported to /tmp/pi-session-export.html (on pi's machine).");
    expect($(el, '[part="status"]')!.getAttribute("role")).to.equal("status");
  });

  it("while pi streams, disables new session, compact and fork with the reason; name and export stay", async () => {
    const { agent, el } = await mount("1.6.0");
    agent.startRun();
    await waitUntil(() => off(button(el, "new")), "pi streams");
    expect(["new", "compact", "name", "fork", "export"].map((a) => off(button(el, a)))).to.deep.equal([
      true,
      true,
      false,
      true,
      false,
    ]);
    const reason = $(el, '[part~="reason"]')!;
    expect(reason.textContent).to.equal("New session, compact and fork wait until pi has finished (or is stopped).");
    expect(button(el, "compact").getAttribute("aria-describedby")).to.equal(reason.id);
    el.start("new");
    await el.updateComplete;
    expect(dialog(el)).to.equal(null);
    agent.endRun();
    await waitUntil(() => !off(button(el, "new")), "the run ended");
    // A run that begins while a dialog is open: its action waits there too, with the reason.
    await openDialog(el, "compact");
    agent.startRun();
    await waitUntil(() => ($(el, 'dialog [type="submit"]') as HTMLButtonElement).disabled, "the run began");
    expect($(el, "#dialog-reason")!.textContent).to.equal(reason.textContent);
    expect($(el, 'dialog [type="submit"]')!.getAttribute("aria-describedby")).to.equal("dialog-reason");
    dialog(el)!.close();
    agent.endRun();
    await waitUntil(() => !off(button(el, "new")), "the run ended");
    expect($(el, '[part~="reason"]')).to.equal(null);
  });

  it("while pi is not running (its exit reported), offers no action, with the reason; back when it starts again", async () => {
    const { agent, el } = await mount("1.6.0");
    const actions = ["new", "compact", "name", "fork", "export"];
    expect(actions.map((a) => off(button(el, a)))).to.deep.equal([false, false, false, false, false]);
    agent.send({ type: "pi-elements/agent_exit", code: 1, signal: null, stderrTail: [], restart: "on-request" });
    await waitUntil(() => off(button(el, "export")), "the exit reported");
    expect(actions.map((a) => off(button(el, a)))).to.deep.equal([true, true, true, true, true]);
    const reason = $(el, '[part~="reason"]')!;
    expect(reason.textContent).to.equal("pi is not running: restart it to use these.");
    for (const action of actions) expect(button(el, action).getAttribute("aria-describedby")).to.equal(reason.id);
    el.start("export");
    await el.updateComplete;
    expect(status(el)).to.equal("", "nothing was sent");
    agent.send({ type: "pi-elements/agent_start", pid: 9 });
    await waitUntil(() => !off(button(el, "export")), "pi started again");
    expect($(el, '[part~="reason"]')).to.equal(null);
  });

  it("shows pi's refusal beside the buttons, in words, and an extension's cancel as such", async () => {
    const { agent, el } = await mount("0.73.1");
    agent.failing.set("compact", "Nothing to compact (session too small)");
    await openDialog(el, "compact");
    ($(el, 'dialog [type="submit"]') as HTMLButtonElement).click();
    await waitUntil(() => $(el, '[part~="error"]'), "the error");
    const error = $(el, '[part~="error"]')!;
    expect(error.getAttribute("role")).to.equal("alert");
    expect(error.textContent).to.equal("Compact failed: Nothing to compact (session too small)");
    agent.answers.set("new_session", { cancelled: true });
    await openDialog(el, "new");
    ($(el, "dialog .danger") as HTMLButtonElement).click();
    await waitUntil(() => status(el) === "New session: an extension cancelled it.");
    expect($(el, '[part~="error"]')).to.equal(null);
  });

  it("keeps a dialog open that was opened the moment another one closed", async () => {
    const { el } = await mount("1.6.0");
    await openDialog(el, "name");
    const first = dialog(el)!;
    // A browser fires a closed dialog's close event a task or a frame later.
    const closeEvent = new Promise((resolve) => first.addEventListener("close", resolve, { once: true }));
    // Cancel, then New session in the same moment: before that event.
    ($(el, 'dialog [part~="cancel-button"]') as HTMLButtonElement).click();
    button(el, "new").click();
    await closeEvent;
    await waitUntil(() => dialog(el)?.open, "the new dialog opens");
    await el.updateComplete;
    expect(dialog(el)!.open, "still open after the first dialog's close event").to.equal(true);
    expect($(el, "#dialog-title")!.textContent).to.equal("Start a new session?");
  });

  it("speaks Japanese and Chinese", async () => {
    const ja = (await mount("1.6.0", "ja")).el;
    expect(button(ja, "new").textContent!.trim()).to.equal("新しいセッション");
    await openDialog(ja, "new");
    expect($(ja, "#dialog-title")!.textContent).to.equal("新しいセッションを始めますか?");
    const zh = (await mount("1.6.0", "zh-CN")).el;
    expect(button(zh, "export").textContent!.trim()).to.equal("导出 HTML");
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe in the ${theme} theme with each dialog open, right to left too, and takes screenshots`, async () => {
      const agent = await ControlsAgent.start("1.6.0");
      const box = await fixture<HTMLElement>(
        html`<div id="shot" style="padding: 8px; inline-size: 36rem; background: ${theme === "dark" ? "#1e1e24" : "#fff"}">
          <pi-session-actions theme=${theme} .session=${agent.session}></pi-session-actions>
          <pi-session-actions theme=${theme} dir="rtl" lang="zh" .session=${agent.session}></pi-session-actions>
        </div>`,
      );
      const [el, rtl] = [...box.querySelectorAll("pi-session-actions")] as PiSessionActions[];
      await waitUntil(() => agent.commands("get_state").length > 0);
      await expect(box).to.be.accessible();
      expect(button(rtl!, "new").getBoundingClientRect().left).to.be.above(
        button(rtl!, "export").getBoundingClientRect().left,
      );
      agent.startRun();
      await waitUntil(() => off(button(el!, "new")));
      await expect(box).to.be.accessible();
      await executeServerCommand("screenshot", { name: `session-actions-${theme}-streaming`, selector: "#shot" });
      agent.endRun();
      await waitUntil(() => !off(button(el!, "new")));
      for (const action of ["new", "compact", "name", "fork"]) {
        await openDialog(el!, action);
        if (action === "fork") await waitUntil(() => $(el!, '[part~="fork-option"]'));
        await expect(el).to.be.accessible();
        await executeServerCommand("screenshot", { name: `session-actions-${theme}-${action}`, selector: "dialog" });
        dialog(el!)!.close();
        await waitUntil(() => !dialog(el!));
      }
    });
  }
});
