/**
 * A session that ends for good is visibly closed, whichever way it ends (`close()`, a stream transport whose
 * readable ends as when pi exits, a WebSocket that runs out of reconnect attempts, a bridge that refuses the page's
 * token): its dialogs leave, pi-extension-ui and pi-prompt say that the agent is gone (or, for the refused token,
 * what to do: open the address the bridge printed), a dialog element shown on its own keeps its text and says that its
 * answer can no longer be sent, and no element fires pi-submit or pi-cancel for an answer that was never sent.
 */
import { expect, fixture, html } from "@open-wc/testing";
import {
  type DialogRequest,
  LocalSession,
  PiSession,
  StreamTransport,
  TOKEN_REFUSED_CLOSE_CODE,
  WebSocketTransport,
} from "@pi-elements/core";
import type { DialogSession } from "@pi-elements/core/dialogs";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/elements/confirm/define.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/input/define.js";
import "../src/elements/model-picker/define.js";
import "../src/elements/prompt/define.js";
import "../src/elements/session-actions/define.js";
import "../src/elements/thinking-level/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import type { PiInput } from "../src/elements/input/input.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, ManualClock, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

// About closing and ordering, not arming: the keys these tests press answer at once.
withoutArming();

/** A running session with an agent end the test speaks for, and a way to end it for good. */
interface Ending {
  session: PiSession;
  /** Sends a record as pi would. */
  send(message: object): Promise<void>;
  /** Ends the session the way this case does; resolves once the transport is closed. */
  end(): Promise<void>;
  /** Everything the client sent to the agent, parsed. */
  sent(): Promise<Array<{ type: string }>>;
  /** What pi-prompt and pi-extension-ui say once it has ended. */
  words: string;
}

const GONE = "The session has ended: the agent is gone.";

/** Re-checks `ready` after each settle; fails with `what` when it does not hold within 200 rounds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  for (let round = 0; round < 200; round++) {
    if (ready()) return;
    await settle();
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const closedState = (session: PiSession) => () => session.ui.getSnapshot().connection === "closed";

async function viaClose(): Promise<Ending> {
  const agent = new FakeAgent();
  return {
    session: agent.session,
    send: async (message) => agent.send(message),
    end: async () => agent.session.close(),
    sent: async () => agent.received,
    words: GONE,
  };
}

async function viaStreamEnd(): Promise<Ending> {
  let pi!: ReadableStreamDefaultController<string>;
  const readable = new ReadableStream<string>({
    start: (controller) => {
      pi = controller;
    },
  });
  const written: string[] = [];
  const writable = new WritableStream<string>({ write: (chunk) => void written.push(chunk) });
  const session = new PiSession(new StreamTransport({ readable, writable }));
  return {
    session,
    send: async (message) => pi.enqueue(`${JSON.stringify(message)}\n`),
    // pi exits: its stdout ends.
    end: async () => {
      pi.close();
      await until(closedState(session), "the stream transport to close");
    },
    sent: async () =>
      written
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    words: GONE,
  };
}

let rooms = 0;
/** A WebSocket session on the test server's `room`, its reconnect delays on a manual clock. */
async function webSocketSession() {
  const room = `session-end-${Date.now()}-${++rooms}`;
  const url = await executeServerCommand<string, { room: string }>("ws-server:url", { room });
  // Reconnect delays fire when the test says so; time stands still, so a connection that came back and was lost
  // again counts as part of the same run of failures (resetAfter 1 ms).
  const clock = new ManualClock();
  const transport = new WebSocketTransport(url, {
    clock,
    reconnect: { maxAttempts: 1, resetAfter: 1, initialDelay: 1, jitter: 0 },
  });
  const session = new PiSession(transport);
  await until(() => session.ui.getSnapshot().connection === "open", "the WebSocket to open");
  return {
    room,
    clock,
    session,
    send: async (message: object) => {
      // A JSONL line, as the bridge sends them (the transport's default framing).
      await executeServerCommand("ws-server:send", { room, frames: [`${JSON.stringify(message)}\n`] });
    },
    sent: async () =>
      (await executeServerCommand<string[], { room: string }>("ws-server:received", { room })).map((frame) =>
        JSON.parse(frame),
      ),
  };
}

async function viaReconnectsExhausted(): Promise<Ending> {
  const { room, clock, session, send, sent } = await webSocketSession();
  const drop = () => executeServerCommand("ws-server:drop", { room });
  return {
    session,
    send,
    sent,
    words: GONE,
    end: async () => {
      // Lost, reconnected (the one attempt allowed), lost again: no attempt is left.
      await drop();
      await until(() => clock.pending > 0, "a reconnect to be scheduled");
      clock.next();
      await executeServerCommand("ws-server:wait-for-connections", { room, total: 2, open: 1 });
      await until(() => session.ui.getSnapshot().connection === "open", "the WebSocket to reopen");
      await drop();
      await until(closedState(session), "the WebSocket transport to give up");
    },
  };
}

async function viaTokenRefused(): Promise<Ending> {
  const { room, clock, session, send, sent } = await webSocketSession();
  return {
    session,
    send,
    sent,
    words: "The bridge refused this page's token (it may have restarted with a new one). Open the address it printed.",
    end: async () => {
      // As a pi-elements bridge refuses a token: the connection closed with TOKEN_REFUSED_CLOSE_CODE.
      await executeServerCommand("ws-server:close-with", {
        room,
        code: TOKEN_REFUSED_CLOSE_CODE,
        reason: "token refused: open the address pi-bridge printed",
      });
      await until(closedState(session), "the WebSocket transport to stop");
      // No retry: the refusal is final, whatever the time.
      expect(clock.pending, "a reconnect scheduled after the refusal").to.equal(0);
      expect(session.ui.getSnapshot().connectionEnd?.reason).to.equal("refused");
    },
  };
}

const part = (root: Element, name: string) => root.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
const request = (id: string, method: string, fields: object) => ({
  type: "extension_ui_request",
  id,
  method,
  ...fields,
});

for (const [how, start] of [
  ["close()", viaClose],
  ["a stream transport whose readable ends (pi exited)", viaStreamEnd],
  ["a WebSocket past its reconnect attempts", viaReconnectsExhausted],
  ["a bridge refusing the page's token", viaTokenRefused],
] as const) {
  describe(`a session ended by ${how}`, () => {
    let ending: Ending;
    let events: string[];
    const record = (event: Event) => events.push(event.type);

    beforeEach(async () => {
      ending = await start();
      events = [];
      document.addEventListener("pi-submit", record);
      document.addEventListener("pi-cancel", record);
    });
    afterEach(() => {
      document.removeEventListener("pi-submit", record);
      document.removeEventListener("pi-cancel", record);
      ending.session.close();
    });

    it("pi-extension-ui and pi-prompt say the agent is gone; the dialogs leave unanswered; nothing is sent or fired", async () => {
      const wrapper = await fixture<HTMLElement>(
        html`<div><pi-extension-ui .session=${ending.session}><pi-prompt .session=${ending.session}></pi-prompt></pi-extension-ui></div>`,
      );
      const host = wrapper.querySelector<PiExtensionUi>("pi-extension-ui")!;
      const prompt = wrapper.querySelector<PiPrompt>("pi-prompt")!;
      await ending.send(request("d1", "input", { title: "Name?" }));
      await ending.send(request("d2", "confirm", { title: "Delete build/?", message: "" }));
      await until(() => host.current?.id === "d1" && part(host, "queue") !== null, "both dialogs to show");
      await sendKeys({ type: "half an answer" });
      expect(part(host, "session-ended")).to.equal(null);

      await ending.end();
      await until(() => part(host, "session-ended") !== null, "pi-extension-ui to say the session ended");
      const ended = part(host, "session-ended")!;
      expect(ended.getAttribute("role")).to.equal("alert");
      expect(ended.checkVisibility()).to.equal(true);
      expect(ended.textContent!.replace(/\s+/g, " ").trim()).to.equal(
        `${ending.words} Not answered: Name?, Delete build/?.`,
      );
      expect(ending.session.ui.getSnapshot().dialogs).to.deep.equal([]);
      expect(part(host, "dialog-element")).to.equal(null);
      expect(part(host, "base")?.hasAttribute("open") ?? false).to.equal(false);
      await until(() => part(prompt, "session-ended") !== null, "pi-prompt to say the session ended");
      expect(part(prompt, "session-ended")!.getAttribute("role")).to.equal("alert");
      expect(part(prompt, "session-ended")!.checkVisibility()).to.equal(true);
      expect(part(prompt, "session-ended")!.textContent!.trim()).to.equal(ending.words);
      expect(part(prompt, "send")!.hasAttribute("disabled")).to.equal(true);

      expect(events).to.deep.equal([]);
      expect((await ending.sent()).filter((m) => m.type === "extension_ui_response")).to.deep.equal([]);
    });

    it("the session controls are disabled and say, briefly, that the session ended; nothing they offer is left enabled", async () => {
      const wrapper = await fixture<HTMLElement>(
        html`<div>
          <pi-session-actions .session=${ending.session}></pi-session-actions>
          <pi-model-picker .session=${ending.session}></pi-model-picker>
          <pi-thinking-level .session=${ending.session}></pi-thinking-level>
        </div>`,
      );
      const actions = wrapper.querySelector("pi-session-actions")!;
      const picker = wrapper.querySelector("pi-model-picker")!;
      const level = wrapper.querySelector("pi-thinking-level")!;
      await ending.end();
      await until(() => part(actions, "reason") !== null, "pi-session-actions to give its reason");
      const buttons = [...actions.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")];
      expect(buttons.length).to.be.greaterThan(0);
      // aria-disabled: a button keeps its focus when it cannot act (pi-session-actions' rule).
      const enabled = buttons.filter((button) => !button.disabled && button.getAttribute("aria-disabled") !== "true");
      expect(enabled.map((button) => button.textContent!.trim())).to.deep.equal([]);
      expect(part(actions, "reason")!.textContent).to.equal("The session has ended.");
      expect(buttons[0]!.getAttribute("aria-describedby")).to.equal(part(actions, "reason")!.id);
      await until(() => part(picker, "note") !== null, "pi-model-picker to give its reason");
      expect((part(picker, "trigger") as HTMLButtonElement).disabled).to.equal(true);
      expect(part(picker, "note")!.textContent).to.equal("The session has ended.");
      await until(() => part(level, "note") !== null, "pi-thinking-level to give its reason");
      expect((part(level, "select") as HTMLSelectElement).disabled).to.equal(true);
      expect(part(level, "note")!.textContent).to.equal("The session has ended.");
    });

    it("a dialog element shown on its own keeps its text, says its answer can no longer be sent, fires nothing, and closes on cancel", async () => {
      await ending.send(request("q", "input", { title: "Your name" }));
      await until(() => ending.session.ui.getSnapshot().dialogs.length === 1, "the dialog to arrive");
      const dialog = ending.session.ui.getSnapshot().dialogs[0]!.request as DialogRequest & { method: "input" };
      const el = await fixture<PiInput>(html`<pi-input .session=${ending.session} .request=${dialog}></pi-input>`);
      const field = el.shadowRoot!.querySelector("input")!;
      field.focus();
      await sendKeys({ type: "Ada" });
      const asked = el.ask();

      await ending.end();
      await settle();
      // An answer now is refused and reported as nothing: no event, still open.
      expect(el.submit()).to.equal(false);
      await settle();
      expect(events).to.deep.equal([]);
      expect(el.open).to.equal(true);
      await until(() => part(el, "session-ended") !== null, "the dialog to say the session ended");
      const notice = part(el, "session-ended")!;
      expect(notice.getAttribute("role")).to.equal("alert");
      expect(notice.checkVisibility()).to.equal(true);
      expect(notice.textContent).to.equal(
        "The session has ended: this answer can no longer be sent. Close the dialog to go on.",
      );
      expect(el.open).to.equal(true);
      expect(field.value).to.equal("Ada");

      // Cancelling only closes it: no pi-cancel (nothing was sent), and ask() settles.
      expect(el.cancel("keyboard")).to.equal(false);
      await settle();
      expect(el.open).to.equal(false);
      expect(await asked).to.equal(undefined);
      expect(events).to.deep.equal([]);
      expect((await ending.sent()).filter((m) => m.type === "extension_ui_response")).to.deep.equal([]);
    });
  });
}

describe("an answer the session refuses while the dialog is still pending", () => {
  it("is not reported as given: no pi-submit, the dialog stays open and says so; a later answer it takes is", async () => {
    // A page's own DialogSession that takes no empty name (the elements accept any DialogSession).
    const local = new LocalSession();
    const session: DialogSession = {
      ui: local.ui,
      clock: local.clock,
      respond: (id, answer) => !("value" in answer && answer.value === "") && local.respond(id, answer),
    };
    const question: DialogRequest = { type: "extension_ui_request", id: "n", method: "input", title: "Name" };
    local.open(question);
    const el = await fixture<PiInput>(html`<pi-input .session=${session} .request=${question}></pi-input>`);
    const submitted: unknown[] = [];
    el.addEventListener("pi-submit", (event) => submitted.push(event.detail));
    el.addEventListener("pi-cancel", (event) => submitted.push(event.detail));

    expect(el.submit()).to.equal(false);
    await settle();
    expect(submitted).to.deep.equal([]);
    expect(el.open).to.equal(true);
    const error = part(el, "error")!;
    expect(error.getAttribute("role")).to.equal("alert");
    expect(error.textContent).to.equal("This answer could not be sent.");

    el.shadowRoot!.querySelector("input")!.focus();
    await sendKeys({ type: "Ada" });
    expect(el.submit()).to.equal(true);
    await settle();
    expect(submitted).to.deep.equal([{ value: "Ada" }]);
    expect(el.open).to.equal(false);
  });

  it("a confirm whose session has already ended says so when it is shown, and sends nothing", async () => {
    const agent = new FakeAgent();
    agent.request("confirm", { title: "Go?", message: "" });
    await settle();
    const pending = agent.session.ui.getSnapshot().dialogs[0]!.request;
    agent.session.close();
    const el = await fixture<PiConfirm>(html`<pi-confirm .session=${agent.session} .request=${pending}></pi-confirm>`);
    await settle();
    expect(part(el, "session-ended")!.checkVisibility()).to.equal(true);
    const fired: string[] = [];
    el.addEventListener("pi-submit", (event) => fired.push(event.type));
    expect(el.submit(true)).to.equal(false);
    expect(fired).to.deep.equal([]);
    expect(agent.responses()).to.deep.equal([]);
  });
});

describe("the ended session in the nearest language", () => {
  for (const [lang, host, prompt, dialog] of [
    [
      "ja",
      "セッションは終了しました。エージェントとの接続はありません。 未回答: 名前?、削除?",
      "セッションは終了しました。エージェントとの接続はありません。",
      "セッションは終了しました。この回答はもう送信できません。ダイアログを閉じてください。",
    ],
    [
      "zh-Hans",
      "会话已结束：代理已不在。 未回答：名前?、削除?。",
      "会话已结束：代理已不在。",
      "会话已结束：此回答已无法发送。请关闭对话框。",
    ],
  ] as const) {
    it(`says it in ${lang}`, async () => {
      const agent = new FakeAgent();
      agent.request("input", { title: "名前?" });
      agent.request("confirm", { title: "削除?", message: "" });
      await settle();
      const question = agent.session.ui.getSnapshot().dialogs[1]!.request;
      const wrapper = await fixture<HTMLElement>(
        html`<div lang=${lang}>
          <pi-extension-ui .session=${agent.session}><pi-prompt .session=${agent.session}></pi-prompt></pi-extension-ui>
          <pi-confirm .session=${agent.session} .request=${question}></pi-confirm>
        </div>`,
      );
      await settle();
      agent.session.close();
      await settle();
      const text = (el: Element) => part(el, "session-ended")?.textContent?.replace(/\s+/g, " ").trim();
      expect(text(wrapper.querySelector("pi-extension-ui")!)).to.equal(host);
      expect(text(wrapper.querySelector("pi-prompt")!)).to.equal(prompt);
      expect(text(wrapper.querySelector("pi-confirm")!)).to.equal(dialog);
    });
  }
});

describe("a host that replaces an ended session with a new one", () => {
  it("no longer says the agent is gone and shows the new session's dialogs, even when both happen in one task", async () => {
    const first = new FakeAgent();
    const second = new FakeAgent();
    const wrapper = await fixture<HTMLElement>(
      html`<div>
        <pi-extension-ui .session=${first.session}></pi-extension-ui>
        <pi-prompt .session=${first.session}></pi-prompt>
      </div>`,
    );
    const host = wrapper.querySelector<PiExtensionUi>("pi-extension-ui")!;
    const prompt = wrapper.querySelector<PiPrompt>("pi-prompt")!;
    const ended = (el: Element) => part(el, "session-ended")?.textContent ?? "(none)";
    await settle();
    // As a gallery restarting a story or a host reconnecting elsewhere does: the old session ends, the new one is
    // given in the same task.
    first.session.close();
    host.session = second.session;
    prompt.session = second.session;
    await settle();
    expect(ended(host), "pi-extension-ui").to.equal("(none)");
    expect(ended(prompt), "pi-prompt").to.equal("(none)");
    second.request("confirm", { title: "Continue?", message: "" });
    await until(
      () => host.querySelector("pi-confirm") !== null || host.shadowRoot!.querySelector("pi-confirm") !== null,
      "the new session's dialog",
    );
    expect(ended(host)).to.equal("(none)");
  });
});
