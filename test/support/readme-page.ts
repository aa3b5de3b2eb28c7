/**
 * README.md's complete page (its "embedding: full index.html" block, the full bundle) in an iframe of the test page,
 * served by test/support/plugins/real-pi.mjs with a real pi behind the real bridge: what the end-to-end browser tests
 * read and drive there, as a user does (real keys through the test runner's driver).
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys } from "@web/test-runner-commands";
import { deepAll, deepText } from "./deep-dom.js";

/** A bound against a hang, not a timed assertion: two engines share two cores with two pis. */
export const WAIT = { timeout: 25_000, interval: 20 };

/** Waits until `get` finds something, and gives it. */
export async function found<T>(get: () => T | null | undefined, what: string): Promise<T> {
  await waitUntil(() => get(), what, WAIT);
  return get()!;
}

/** The page in its iframe: README's page, served by the real-pi plugin with this bridge's address. */
export class Frame {
  readonly iframe = document.createElement("iframe");
  readonly errors: string[] = [];
  /** The keys the page got (keydown, in capture), newest last: what a failure reports, beside what the page shows. */
  readonly keys: string[] = [];
  /**
   * What each Enter met once the page had handled it (bubbling back to the window): the element it went to, whether
   * it was taken (default prevented), and the prompt's state then. A send that went nowhere says why.
   */
  readonly enters: string[] = [];
  /**
   * What the page's session went through, newest last, in ms since the page loaded: its transport's states, the
   * commands it sent, the bridge's messages, its diagnostics, a session made or replaced. A send that found the
   * connection down says when it went down and came back.
   */
  readonly timeline: string[] = [];

  constructor(readonly bridgeUrl: string) {
    this.iframe.title = "README's complete pi web UI";
    this.iframe.style.cssText = "inline-size: 1000px; block-size: 700px; border: 0";
    document.body.append(this.iframe);
  }

  /** Loads (or reloads) the page and waits until it shows pi's model. */
  async load(reload = false): Promise<void> {
    const loaded = new Promise((resolve) => this.iframe.addEventListener("load", resolve, { once: true }));
    if (reload) this.window.location.reload();
    else this.iframe.src = `/readme/full/index.html?bridge=${encodeURIComponent(this.bridgeUrl)}`;
    await loaded;
    this.#watchSession();
    this.window.addEventListener("error", (event) => this.errors.push(String(event.message)));
    this.window.addEventListener("unhandledrejection", (event) => this.errors.push(String(event.reason)));
    this.window.addEventListener(
      "keydown",
      (event) => {
        this.keys.push(event.key.length === 1 ? event.key : `<${event.key}>`);
        if (this.keys.length > 80) this.keys.splice(0, this.keys.length - 80);
      },
      true,
    );
    this.window.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const target = event.composedPath()[0] as Element | Window;
      const name = "localName" in target ? described(target) : "the window";
      const prompt = this.doc.querySelector("pi-prompt") as (HTMLElement & PromptState) | null;
      const session = (this.doc.querySelector("pi-session") as SessionHost | null)?.session;
      this.enters.push(
        `to ${name}${event.defaultPrevented ? ", taken" : ", not taken"}${event.isComposing ? ", composing" : ""}, keyCode ${event.keyCode} at ${this.#since()} ms; the prompt: ${
          prompt
            ? `canSend ${prompt.canSend}, running ${prompt.running}, value ${JSON.stringify(prompt.value)}`
            : "none"
        }; the transport ${session?.transport.state ?? "(no session)"}`,
      );
      if (this.enters.length > 10) this.enters.shift();
    });
    // pi's model, with its provider: pi answered the page's get_state, so the page is connected. The picker's
    // placeholder ("No model") shows before that, while the page still connects, and a prompt sent then goes nowhere
    // (pi-prompt sends nothing while connecting): the smoke's lost first prompt (stops 42, 44, 45).
    await waitUntil(() => this.modelShown(), "the page to show pi's model", WAIT).catch((error: Error) => {
      throw new Error(`${error.message}; the picker shows ${JSON.stringify(this.modelName())}, ${this.promptState()}`);
    });
  }

  #loadedAt = 0;

  #since(): number {
    return Math.round(performance.now() - this.#loadedAt);
  }

  #note(entry: string): void {
    this.timeline.push(`${this.#since()} ${entry}`);
    if (this.timeline.length > 60) this.timeline.splice(0, this.timeline.length - 60);
  }

  /** Follows the page's session (and any that replaces it) into the timeline. */
  #watchSession(): void {
    this.#loadedAt = performance.now();
    this.timeline.length = 0;
    const host = this.doc.querySelector("pi-session") as SessionHost | null;
    if (!host) {
      this.#note("no pi-session");
      return;
    }
    const watch = (session: WatchedSession | undefined) => {
      if (!session) return this.#note("no session");
      this.#note(`a session, transport ${session.transport.state}`);
      session.attach({
        connection: (state) => this.#note(`transport ${state}`),
        commandSent: (command) => this.#note(`sent ${command.type}`),
        commandResult: (command) => this.#note(`answered ${command.type}`),
        commandFailed: (command, error) => this.#note(`failed ${command.type}: ${error}`),
        bridgeMessage: (message) => this.#note(`bridge ${message.type}`),
      });
      session.addEventListener("diagnostic", (event) =>
        this.#note(`diagnostic ${String((event as Event & { value?: { message?: string } }).value?.message)}`),
      );
    };
    watch(host.session);
    host.addEventListener("pi-session-change", (event) => {
      this.#note("the session changed");
      watch((event as CustomEvent<{ session: WatchedSession | undefined }>).detail.session);
    });
  }

  get window(): Window {
    return this.iframe.contentWindow!;
  }

  get doc(): Document {
    return this.iframe.contentDocument!;
  }

  el<T extends Element = HTMLElement>(selector: string): T {
    const found = this.doc.querySelector<T>(selector);
    if (!found) throw new Error(`the page has no ${selector}`);
    return found;
  }

  /** `selector` in `host`'s shadow root. */
  part<T extends Element = HTMLElement>(host: string, selector: string): T | null {
    return this.el(host).shadowRoot?.querySelector<T>(selector) ?? null;
  }

  /** Whether the model picker shows a model of pi's (with its provider), not its placeholder. */
  modelShown(): boolean {
    return this.part("pi-model-picker", "[part~=trigger] .provider") !== null;
  }

  modelName(): string {
    return deepText(this.part("pi-model-picker", "[part~=trigger]") ?? this.doc.createElement("p")).trim();
  }

  articles(): HTMLElement[] {
    return [...(this.el("pi-transcript").shadowRoot?.querySelectorAll<HTMLElement>("[part~=feed] > article") ?? [])];
  }

  texts(): string[] {
    return this.articles().map((article) => deepText(article).replace(/\s+/g, " ").trim());
  }

  streaming(): HTMLElement | null {
    return (
      this.el("pi-transcript").shadowRoot?.querySelector<HTMLElement>("[part~=feed] > article[aria-busy=true]") ?? null
    );
  }

  /** The stats' input tokens (`↑20`), 0 while there are none. */
  inputTokens(): number {
    return Number(/↑\s*([\d.]+)/.exec(deepText(this.el("pi-session-stats")))?.[1] ?? 0);
  }

  /** Focuses `target` (inside the page, maybe in a shadow root) as Tab would, and waits until it has focus. */
  async focus(target: HTMLElement): Promise<void> {
    this.window.focus();
    target.focus();
    await waitUntil(() => deepActive(this.doc) === target, "the control to have focus", WAIT);
  }

  /** Types `text` into the prompt and sends it with Enter. */
  async send(text: string): Promise<void> {
    const area = await found(() => this.part<HTMLTextAreaElement>("pi-prompt", "textarea"), "the prompt");
    await untilCanSend(this.el("pi-prompt")).catch((error: Error) => {
      throw new Error(`${error.message}; ${this.promptState()}`);
    });
    await this.focus(area);
    await sendKeys({ type: text });
    // WebKit's driver can lose the first key it sends into an iframe that has only just taken focus (seen once in
    // three-engine runs under load: "irst question"). A key the driver dropped is typed again, once; the text must
    // then be in the box exactly as typed before it is sent.
    if (area.value !== text) {
      area.select();
      await sendKeys({ type: text });
    }
    expect(area.value, "the prompt holds what was typed").to.equal(text);
    await sendKeys({ press: "Enter" });
  }

  /**
   * Sends `prompt`, reloads the page once some of `answer` streams, and checks what a reader of the reloaded page
   * sees: a beginning of the answer at once (not nothing until it ends), then the whole answer once, after the prompt
   * once. The scripted model must stream `answer` slowly enough for a reload to land in its middle.
   */
  async reloadMidAnswer(prompt: string, answer: string): Promise<void> {
    await this.send(prompt);
    await waitUntil(
      () => deepText(this.streaming() ?? document.createElement("p")).length > 60,
      "some of the answer",
      WAIT,
    );
    await this.load(true);
    const seen: string[] = [];
    await waitUntil(
      () => {
        const busy = this.streaming();
        const text = busy ? deepAll(busy, "pi-markdown").map(deepText).join("") : "";
        if (text !== "") seen.push(text);
        return seen.length > 0;
      },
      "the reloaded page to show the answer so far",
      WAIT,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; articles: ${JSON.stringify(this.texts())}`);
    });
    expect(answer.startsWith(seen[0]!), `a beginning of the answer: ${JSON.stringify(seen[0])}`).to.equal(true);
    expect(seen[0]!.length, "the reload came mid-answer").to.be.below(answer.length);
    await this.settled(answer);
    const texts = this.texts();
    expect(texts.filter((t) => t.includes(prompt))).to.have.length(1);
    expect(texts.filter((t) => t.includes(answer))).to.have.length(1);
  }

  /** Waits until no article streams, one shows `text`, and the prompt says pi is ready again (its status clear). */
  async settled(text: string): Promise<void> {
    // pi takes a new prompt once its run has settled (1.x's agent_settled comes after the answer's end): the prompt's
    // status ("Working…") clears then, as a person sees it.
    const status = () => (this.part("pi-prompt", "[part~=status]")?.textContent ?? "").trim();
    await waitUntil(
      () => !this.streaming() && this.texts().some((t) => t.includes(text)) && status() === "",
      `the answer ${JSON.stringify(text)}, and the prompt's status to clear`,
      WAIT,
    ).catch(async (error: Error) => {
      throw new Error(
        `${error.message}; articles: ${JSON.stringify(this.texts())}, ${this.promptState()}; pi's side: ${await piReport()}`,
      );
    });
  }

  /** What the prompt shows (its status, text, error) and the keys the page got: said when a wait on pi fails. */
  promptState(): string {
    const shown = (selector: string) => (this.part("pi-prompt", selector)?.textContent ?? "").trim();
    const box = this.part<HTMLTextAreaElement>("pi-prompt", "textarea")?.value;
    return [
      `status ${JSON.stringify(shown("[part~=status]"))}`,
      `the box ${JSON.stringify(box)}`,
      `error ${JSON.stringify(shown("[part~=error]"))}`,
      `connection ${JSON.stringify(shown("[part~=session-ended]") || "open")}`,
      `keys the page got ${JSON.stringify(this.keys.join(""))}`,
      `the Enters: ${this.enters.join(" | ") || "none"}`,
      `focus on ${described(deepActive(this.doc))}`,
      `the session (ms since load): ${this.timeline.join(" | ") || "nothing"}`,
    ].join(", ");
  }
}

/**
 * Waits until `prompt` (a pi-prompt) can send, as a person waits for its Send button to be enabled (the Node-driven
 * tests' `promptReady`, test/support/wait-for.ts): connected, and no command of its own in flight. pi-prompt sends
 * nothing before that (Enter then keeps the text).
 */
export async function untilCanSend(prompt: Element, wait: { timeout: number; interval: number } = WAIT): Promise<void> {
  await waitUntil(() => (prompt as Element & Partial<PromptState>).canSend === true, "the prompt able to send", wait);
}

/** What pi's side says (test/support/plugins/real-pi.mjs's "real-pi:report"): whether the prompt reached pi. */
async function piReport(): Promise<string> {
  return executeServerCommand<string, undefined>("real-pi:report").catch(
    (error: Error) => `not read (${error.message})`,
  );
}

/** The page's pi-session and the parts of its PiSession the timeline reads (the page's realm: its own classes). */
interface SessionHost extends HTMLElement {
  session?: WatchedSession;
}
interface WatchedSession extends EventTarget {
  transport: { state: string };
  attach(observer: {
    connection?(state: string): void;
    commandSent?(command: { type: string }): void;
    commandResult?(command: { type: string }): void;
    commandFailed?(command: { type: string }, error: string): void;
    bridgeMessage?(message: { type: string }): void;
  }): unknown;
}

/** What pi-prompt says of itself (its public properties), for a failure's report. */
interface PromptState {
  canSend: boolean;
  running: boolean;
  value: string;
}

/** An element as a failure names it: its name and part (the page's own realm: not this window's Elements). */
function described(element: Element | null): string {
  if (!element) return "nothing";
  const part = element.getAttribute("part");
  return `${element.localName}${part ? `[part=${part}]` : ""}`;
}

/** The focused element, through open shadow roots. */
export function deepActive(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
