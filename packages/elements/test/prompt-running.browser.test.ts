/**
 * pi-prompt while the agent runs (issue #22 item 1): the run's state in the status, pi's queues as a list with a
 * "Take back" per message on pi 1.x (none on 0.73.1, which says why), Escape and Stop giving the queued text back
 * through `clear_queue` on 1.x and sending only `abort` on 0.73.1, and images pasted or dropped, sent as pi's
 * `images`, with their limits.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { conversationOf } from "@pi-elements/core/conversation";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import "../src/elements/prompt/define.js";
import { pressCombo } from "../../../test/support/engine.js";
import type { PiPrompt } from "../src/elements/prompt/prompt.js";
import { FakeAgent, settle } from "./session-fake-agent.js";

const root = (el: PiPrompt) => el.shadowRoot!;
const field = (el: PiPrompt) => root(el).querySelector("textarea")!;
const part = <T extends Element = HTMLElement>(el: PiPrompt, name: string) =>
  root(el).querySelector<T>(`[part~="${name}"]`);
const status = (el: PiPrompt) => part(el, "status")!.textContent!.trim();
/** What the client sent, without the store's own refresh commands. */
const REFRESH = new Set([
  "get_state",
  "get_messages",
  "get_available_models",
  "get_available_thinking_levels",
  "get_session_stats",
]);
const sent = (agent: FakeAgent) => agent.commands().filter((command) => !REFRESH.has(command.type));
/** A frame for the store's per-frame batching, then the usual settling. */
const frame = async () => {
  await new Promise((resolve) => requestAnimationFrame(resolve));
  await settle();
};

/** A PNG of `bytes` bytes (its content does not matter to the prompt; the type and size do). */
const png = (name: string, bytes = 68) => new File([new Uint8Array(bytes).fill(7)], name, { type: "image/png" });
const TINY_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const realPng = (name: string) => new File([TINY_PNG], name, { type: "image/png" });

function paste(target: HTMLElement, files: File[]) {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, composed: true, cancelable: true });
  // Firefox's constructor copies no files into the event's clipboardData (a real paste has them): hand it the data.
  if (event.clipboardData?.files.length !== files.length) {
    Object.defineProperty(event, "clipboardData", { value: data });
  }
  target.dispatchEvent(event);
}
function drop(target: HTMLElement, files: File[]) {
  const data = new DataTransfer();
  for (const file of files) data.items.add(file);
  const over = new DragEvent("dragover", { dataTransfer: data, bubbles: true, composed: true, cancelable: true });
  target.dispatchEvent(over);
  target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, composed: true, cancelable: true }));
  return over.defaultPrevented;
}
async function imagesShown(el: PiPrompt, count: number) {
  for (let i = 0; i < 50 && root(el).querySelectorAll('[part~="image"]').length !== count; i++) await settle();
  expect(root(el).querySelectorAll('[part~="image"]').length).to.equal(count);
}

describe("pi-prompt while the agent runs", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  /** A prompt on a session whose conversation store is kept, as pi 1.x (levels answered) or 0.73.1 (not). */
  async function mount(
    pi: "1.x" | "0.73.1",
    template = (session: unknown) => html`<pi-prompt .session=${session}></pi-prompt>`,
  ) {
    if (pi === "1.x") agent.results.set("get_available_thinking_levels", { levels: ["off", "high"] });
    else agent.failing.add("get_available_thinking_levels");
    conversationOf(agent.session);
    const el = await fixture<PiPrompt>(template(agent.session));
    await frame();
    return el;
  }

  it("says what the run does: working, compacting, retrying N of M, nothing once idle", async () => {
    const el = await mount("1.x");
    expect(part(el, "status")!.getAttribute("role")).to.equal("status");
    expect(status(el)).to.equal("");
    agent.send({ type: "agent_start" });
    await frame();
    expect(status(el)).to.equal("Working…");
    agent.send({ type: "compaction_start", reason: "threshold" });
    await frame();
    expect(status(el)).to.equal("Compacting…");
    agent.send({
      type: "compaction_end",
      reason: "threshold",
      result: { summary: "s" },
      aborted: false,
      willRetry: false,
    });
    agent.send({ type: "agent_end", messages: [], willRetry: true });
    agent.send({ type: "auto_retry_start", attempt: 2, maxAttempts: 3, delayMs: 1000, errorMessage: "overloaded" });
    await frame();
    expect(status(el)).to.equal("Retrying (2 of 3)…");
    agent.send({ type: "agent_start" });
    agent.send({ type: "auto_retry_end", success: true, attempt: 2 });
    agent.send({ type: "agent_end", messages: [] });
    agent.send({ type: "agent_settled", aborted: false });
    await frame();
    expect(status(el)).to.equal("");
  });

  it("says it in the nearest language", async () => {
    const el = await mount("1.x", (session) => html`<div lang="ja"><pi-prompt .session=${session}></pi-prompt></div>`);
    const prompt = el.querySelector("pi-prompt") as PiPrompt;
    agent.send({ type: "agent_start" });
    agent.send({ type: "auto_retry_start", attempt: 1, maxAttempts: 3 });
    await frame();
    expect(status(prompt)).to.equal("再試行中（3回中1回目）…");
  });

  it("lists pi's queues in pi's order, steering first, as a named list", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: ["go left"], followUp: ["then tidy", "and test"] });
    await frame();
    const list = part(el, "queue")!;
    expect(list.tagName).to.equal("UL");
    expect(list.getAttribute("aria-label")).to.equal("Queued messages");
    const items = [...list.querySelectorAll("li")].map((li) => li.querySelector('[part~="queued-text"]')!.textContent);
    expect(items).to.deep.equal(["go left", "then tidy", "and test"]);
    const names = [...list.querySelectorAll("button")].map((b) => b.getAttribute("aria-label"));
    expect(names).to.deep.equal(["Take back: go left", "Take back: then tidy", "Take back: and test"]);
    agent.send({ type: "queue_update", steering: [], followUp: [] });
    await frame();
    expect(part(el, "queue")).to.equal(null);
  });

  it("takes a queued message back: clear_queue, the others queued again in order and kind, the text in the box", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: ["s1", "s2"], followUp: ["f1"] });
    await frame();
    agent.results.set("clear_queue", { steering: ["s1", "s2"], followUp: ["f1"] });
    el.value = "draft";
    await el.updateComplete;
    root(el).querySelector<HTMLButtonElement>('[aria-label="Take back: s2"]')!.click();
    await settle();
    expect(sent(agent)).to.deep.equal([
      { type: "clear_queue" },
      { type: "steer", message: "s1" },
      { type: "follow_up", message: "f1" },
    ]);
    expect(field(el).value).to.equal("s2\n\ndraft");
    expect(root(el).activeElement).to.equal(field(el));
  });

  it("says so when pi took the message before it could be taken back, and keeps the others queued", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: ["s1", "s2"], followUp: [] });
    await frame();
    agent.results.set("clear_queue", { steering: ["s2"], followUp: [] });
    root(el).querySelector<HTMLButtonElement>('[aria-label="Take back: s1"]')!.click();
    await settle();
    expect(sent(agent)).to.deep.equal([{ type: "clear_queue" }, { type: "steer", message: "s2" }]);
    expect(part(el, "error")!.textContent).to.contain("pi had already taken that message.");
    expect(field(el).value).to.equal("");
  });

  it("Escape on pi 1.x clears the queue first, then aborts, and puts the queued text back into the box", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    await frame();
    field(el).focus();
    await sendKeys({ type: "go left" });
    await sendKeys({ press: "Enter" });
    await settle();
    await sendKeys({ type: "then tidy" });
    await pressCombo("Alt+Enter");
    await settle();
    agent.send({ type: "queue_update", steering: ["go left"], followUp: ["then tidy"] });
    agent.results.set("clear_queue", { steering: ["go left"], followUp: ["then tidy"] });
    await frame();
    await sendKeys({ type: "draft" });
    await sendKeys({ press: "Escape" });
    await settle();
    expect(sent(agent)).to.deep.equal([
      { type: "steer", message: "go left" },
      { type: "follow_up", message: "then tidy" },
      { type: "clear_queue" },
      { type: "abort" },
    ]);
    expect(field(el).value).to.equal("go left\n\nthen tidy\n\ndraft");
  });

  it("keeps the focus on Send while its command is in flight; the box takes it when Send gives way to Stop, and again when Stop goes", async () => {
    const el = await mount("1.x");
    agent.silent.add("prompt");
    field(el).focus();
    await sendKeys({ type: "hello" });
    part<HTMLButtonElement>(el, "send-button")!.focus();
    await sendKeys({ press: "Enter" });
    await frame();
    expect(sent(agent)).to.deep.equal([{ type: "prompt", message: "hello" }]);
    expect(part(el, "send-button")!.getAttribute("aria-disabled")).to.equal("true");
    expect(root(el).activeElement, "Send keeps the focus while pi has not answered").to.equal(part(el, "send-button"));
    const prompt = agent.received.find((message) => message.type === "prompt")!;
    agent.send({ type: "response", command: "prompt", success: true, id: prompt.id });
    agent.send({ type: "agent_start" });
    await frame();
    expect(part(el, "abort-button"), "Stop while pi works").to.not.equal(null);
    expect(root(el).activeElement, "Send went: the box has the focus").to.equal(field(el));
    part<HTMLButtonElement>(el, "abort-button")!.focus();
    await sendKeys({ press: "Enter" });
    await settle();
    expect(sent(agent).map((command) => command.type)).to.include("abort");
    agent.send({ type: "agent_end", messages: [] });
    await frame();
    expect(part(el, "abort-button"), "Stop goes once pi has stopped").to.equal(null);
    expect(root(el).activeElement, "Stop went: the box has the focus, not the page").to.equal(field(el));
  });

  it("the Stop button does the same", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: [], followUp: ["later"] });
    agent.results.set("clear_queue", { steering: [], followUp: ["later"] });
    await frame();
    part<HTMLButtonElement>(el, "abort-button")!.click();
    await settle();
    expect(sent(agent)).to.deep.equal([{ type: "clear_queue" }, { type: "abort" }]);
    expect(field(el).value).to.equal("later");
  });

  it("on pi 0.73.1 sends only abort, offers no take back and says the queue cannot be taken back", async () => {
    const el = await mount("0.73.1");
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: ["go left"], followUp: [] });
    await frame();
    expect(part(el, "queue")!.querySelectorAll("button")).to.have.length(0);
    expect(part(el, "queue-note")!.textContent).to.equal(
      "This pi cannot take queued messages back: after Stop they stay queued and go with the next message.",
    );
    field(el).focus();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(sent(agent)).to.deep.equal([{ type: "abort" }]);
    expect(field(el).value).to.equal("");
  });

  it("offers Stop (and Escape) while pi waits to retry after its run ended (0.73.1's order)", async () => {
    const el = await mount("0.73.1");
    agent.send({ type: "agent_start" });
    agent.send({ type: "agent_end", messages: [] });
    agent.send({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000 });
    await frame();
    expect(el.streaming).to.equal(false);
    expect(status(el)).to.equal("Retrying (1 of 3)…");
    expect(part(el, "send-button")).to.exist;
    part<HTMLButtonElement>(el, "abort-button")!.click();
    await settle();
    field(el).focus();
    await sendKeys({ press: "Escape" });
    await settle();
    expect(sent(agent)).to.deep.equal([{ type: "abort" }, { type: "abort" }]);
    agent.send({ type: "auto_retry_end", success: false, attempt: 1, finalError: "stopped" });
    await frame();
    expect(part(el, "abort-button")).to.equal(null);
  });

  it("without a conversation store on the page, still says it is working and steers", async () => {
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    agent.send({ type: "agent_start" });
    await settle();
    expect(status(el)).to.equal("Working…");
    expect(part(el, "queue")).to.equal(null);
    expect(agent.commands()).to.deep.equal([]);
  });

  it("picks up a conversation store made after it (a transcript added later)", async () => {
    agent.results.set("get_available_thinking_levels", { levels: ["off"] });
    const el = await fixture<PiPrompt>(html`<pi-prompt .session=${agent.session}></pi-prompt>`);
    conversationOf(agent.session);
    agent.send({ type: "agent_start" });
    agent.send({ type: "queue_update", steering: ["x"], followUp: [] });
    await frame();
    expect(part(el, "queued-text")!.textContent).to.equal("x");
  });

  describe("images", () => {
    it("attaches pasted images as thumbnails and sends them as pi's images with the message", async () => {
      const el = await mount("1.x");
      paste(field(el), [realPng("shot.png")]);
      await imagesShown(el, 1);
      const thumb = part<HTMLImageElement>(el, "thumbnail")!;
      expect(thumb.alt).to.equal("shot.png");
      expect(thumb.src.startsWith("blob:")).to.equal(true);
      expect(part(el, "images")!.getAttribute("aria-label")).to.equal("Images");
      field(el).focus();
      await sendKeys({ type: "what is this" });
      await sendKeys({ press: "Enter" });
      await settle();
      const data = btoa(String.fromCharCode(...TINY_PNG));
      expect(sent(agent)).to.deep.equal([
        { type: "prompt", message: "what is this", images: [{ type: "image", data, mimeType: "image/png" }] },
      ]);
      expect(part(el, "images")).to.equal(null);
    });

    it("attaches dropped images, steers with them while the agent streams, and removes one with its button", async () => {
      const el = await mount("1.x");
      agent.send({ type: "agent_start" });
      await frame();
      expect(drop(part(el, "base")!, [png("a.png"), new File(["x"], "b.webp", { type: "image/webp" })])).to.equal(true);
      await imagesShown(el, 2);
      root(el).querySelector<HTMLButtonElement>('[aria-label="Remove a.png"]')!.click();
      await imagesShown(el, 1);
      part<HTMLButtonElement>(el, "steer-button")!.click();
      await settle();
      expect(sent(agent)).to.deep.equal([
        { type: "steer", message: "", images: [{ type: "image", data: btoa("x"), mimeType: "image/webp" }] },
      ]);
    });

    it("refuses a file over the limit, past the count, or not an image, with an alert, and sends none of them", async () => {
      const el = await mount("1.x");
      el.maxImageBytes = 100;
      el.maxImages = 1;
      paste(field(el), [png("big.png", 101)]);
      await settle();
      expect(part(el, "error")!.getAttribute("role")).to.equal("alert");
      expect(part(el, "error")!.textContent).to.match(/big\.png is larger than 0(\.0)? MB: not attached\./);
      paste(field(el), [new File(["%PDF"], "doc.pdf", { type: "application/pdf" })]);
      await settle();
      expect(part(el, "error")!.textContent).to.contain("doc.pdf is not a PNG, JPEG, GIF or WebP image: not attached.");
      paste(field(el), [png("one.png"), png("two.png")]);
      await imagesShown(el, 1);
      expect(part(el, "error")!.textContent).to.contain("At most 1 images: two.png not attached.");
      el.value = "go";
      await el.updateComplete;
      part<HTMLButtonElement>(el, "send-button")!.click();
      await settle();
      const [command] = sent(agent) as unknown as { images: { data: string }[] }[];
      expect(command!.images.map((image) => atob(image.data).length)).to.deep.equal([68]);
    });

    it("takes the limit from the attribute", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt max-image-bytes="10" max-images="3"></pi-prompt>`);
      expect(el.maxImageBytes).to.equal(10);
      expect(el.maxImages).to.equal(3);
      paste(field(el), [png("p.png", 11)]);
      await settle();
      expect(part(el, "images")).to.equal(null);
    });

    it("lets plain text paste through", async () => {
      const el = await fixture<PiPrompt>(html`<pi-prompt></pi-prompt>`);
      const data = new DataTransfer();
      data.setData("text/plain", "hi");
      const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
      field(el).dispatchEvent(event);
      expect(event.defaultPrevented).to.equal(false);
    });
  });

  it("keeps the IME guard: an Enter that commits a composition while the agent streams steers nothing", async () => {
    const el = await mount("1.x");
    agent.send({ type: "agent_start" });
    await frame();
    el.value = "にほんご";
    await el.updateComplete;
    field(el).dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, composed: true }),
    );
    field(el).dispatchEvent(
      new KeyboardEvent("keydown", { key: "Escape", isComposing: true, bubbles: true, composed: true }),
    );
    await settle();
    expect(sent(agent)).to.deep.equal([]);
  });

  for (const theme of ["light", "dark"] as const) {
    it(`passes axe with queued messages, the run's state and images, in the ${theme} theme and right to left`, async () => {
      const el = await mount(
        "1.x",
        (session) => html`<pi-prompt theme=${theme} .session=${session} .value=${"draft"}></pi-prompt>`,
      );
      agent.send({ type: "agent_start" });
      agent.send({ type: "queue_update", steering: ["Use the other file"], followUp: ["Then run the tests"] });
      agent.send({ type: "auto_retry_start", attempt: 2, maxAttempts: 3 });
      paste(field(el), [realPng("screenshot.png")]);
      await imagesShown(el, 1);
      await frame();
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-prompt-running-${theme}`, selector: "pi-prompt" });
      el.dir = "rtl";
      await el.updateComplete;
      await expect(el).to.be.accessible();
      await executeServerCommand("screenshot", { name: `pi-prompt-running-rtl-${theme}`, selector: "pi-prompt" });
    });
  }
});
