/**
 * The live page: a whole pi web UI over a WebSocket to the bridge and a real pi. The bridge URL, token included,
 * comes from the page's `?bridge=` parameter, which the demo command prints.
 *
 * Laid out as pi's terminal UI is: a bar with the model, the thinking level and the session commands; the
 * conversation as the one region that scrolls; the prompt at the bottom (extension dialogs open in its place,
 * widgets around it), suggestions of what to ask while the conversation is young; pi's footer (usage and the
 * extensions' status line) below it. The showcase extension's slash commands sit in a column beside it on a wide
 * screen and below it on a narrow one. On a phone everything stacks and nothing scrolls sideways.
 */
import { PiSession, WebSocketTransport } from "@pi-elements/core";
import { type ConversationSnapshot, conversationOf } from "@pi-elements/core/conversation";
import { css, html, LitElement } from "lit";
import { SUGGESTED_PROMPTS } from "../../model/prompts.js";

export function bridgeUrlFromPage(): string | undefined {
  return new URLSearchParams(location.search).get("bridge") ?? undefined;
}

export class DemoLive extends LitElement {
  static override properties = {
    session: { state: true },
    conversation: { state: true },
    agentDown: { state: true },
  };
  declare session: PiSession | undefined;
  declare conversation: ConversationSnapshot | undefined;
  /** pi has exited (the bridge said so): a suggestion could not reach it. */
  declare agentDown: boolean;
  #unsubscribe: (() => void) | undefined;
  readonly #phone = matchMedia("(max-width: 30rem)");
  readonly #onPhoneChange = () => this.requestUpdate();

  override connectedCallback(): void {
    super.connectedCallback();
    this.#phone.addEventListener("change", this.#onPhoneChange);
    const url = bridgeUrlFromPage();
    if (url && !this.session) {
      const session = new PiSession(new WebSocketTransport(url, { framing: "jsonl" }));
      const store = conversationOf(session);
      this.session = session;
      this.conversation = store.getSnapshot();
      const fromStore = store.subscribe(() => {
        this.conversation = store.getSnapshot();
      });
      const fromUi = session.ui.subscribe(() => {
        const ui = session.ui.getSnapshot();
        this.agentDown = ui.agentExit !== undefined || ui.connection === "closed";
      });
      this.#unsubscribe = () => {
        fromStore();
        fromUi();
      };
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#phone.removeEventListener("change", this.#onPhoneChange);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.session?.close();
    this.session = undefined;
  }

  /** pi forked: the message forked from goes back into the prompt to edit and send again, as pi's TUI does. */
  readonly #onFork = (event: CustomEvent<{ text: string }>) => {
    const prompt = this.renderRoot.querySelector("pi-prompt");
    if (!prompt) return;
    prompt.value = event.detail.text;
    prompt.focus();
  };

  /** Sends a suggestion as the user's prompt. pi's refusal is shown by the session itself. */
  #suggest(message: string): void {
    this.session?.send("prompt", { message }).catch(() => {});
  }

  #suggestions() {
    const conversation = this.conversation;
    const idle = (conversation?.run.status ?? "idle") === "idle" && !this.agentDown;
    // A handful of turns in, the reader knows what to do: the row leaves room for the conversation.
    const userMessages =
      conversation?.entries.filter((entry) => entry.kind === "message" && entry.message.role === "user").length ?? 0;
    if (userMessages >= SUGGESTED_PROMPTS.length) return "";
    return html`<div class="suggestions" role="group" aria-labelledby="try">
      <span id="try">Try</span>
      ${SUGGESTED_PROMPTS.map(
        (prompt) =>
          html`<button type="button" dir="auto" ?disabled=${!idle} title=${prompt.message}
            @click=${() => this.#suggest(prompt.message)}>${prompt.label}</button>`,
      )}
    </div>`;
  }

  /** A first-time reader's hint while the conversation is empty. */
  #empty() {
    const conversation = this.conversation;
    if (!conversation?.historyLoaded || conversation.entries.length > 0 || conversation.streaming) return "";
    return html`<p class="empty">Nothing here yet. Write to pi below, or pick one of the suggestions.</p>`;
  }

  override render() {
    const session = this.session;
    if (!session) {
      return html`<h1>Live</h1>
        <p>No bridge URL. Start the demo with <code>bash scripts/demo.sh</code> and open the URL it prints, or add
          <code>?bridge=ws://127.0.0.1:8787/?token=…</code> to this page's address.</p>`;
    }
    return html`
      <div class="app">
        <header class="bar">
          <div class="title">
            <h1>Live pi</h1>
            <demo-connection .session=${session}></demo-connection>
          </div>
          <div class="model">
            <pi-model-picker .session=${session}></pi-model-picker>
            <pi-thinking-level .session=${session}></pi-thinking-level>
          </div>
          <pi-session-actions .session=${session} @pi-fork=${this.#onFork}></pi-session-actions>
        </header>
        <section class="conversation" aria-labelledby="conversation">
          <!-- The transcript's authors are h3s: this keeps the page's headings in order. -->
          <h2 id="conversation" class="visually-hidden">Conversation</h2>
          <pi-transcript .session=${session}></pi-transcript>
          ${this.#empty()}
        </section>
        <section class="composer" aria-label="Prompt">
          <pi-widget-slot .session=${session} placement="aboveEditor"></pi-widget-slot>
          <pi-extension-ui .session=${session} sync-title>
            <pi-prompt .session=${session}></pi-prompt>
          </pi-extension-ui>
          ${this.#suggestions()}
          <pi-widget-slot .session=${session} placement="belowEditor"></pi-widget-slot>
        </section>
        <footer class="footer">
          <pi-session-stats .session=${session}></pi-session-stats>
          <pi-status-bar .session=${session}></pi-status-bar>
        </footer>
        <aside class="commands" aria-label="Extension commands">
          <demo-command-list .session=${session}></demo-command-list>
        </aside>
      </div>
      <!-- Toasts float at the top end, below the bar (five at most; two on a phone): a dialog opens in the prompt's
           place at the bottom, and toasts there covered its buttons and the prompt's Send and Stop. -->
      <pi-notifications .session=${session} floating max=${this.#phone.matches ? 2 : 5}></pi-notifications>
    `;
  }

  static override styles = css`
    :host { display: block; block-size: 100%; min-block-size: 0; }
    h1 { margin: 0; font-size: 1.2rem; }
    .visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%);
      white-space: nowrap; }
    .app {
      block-size: 100%;
      display: grid;
      grid-template-columns: minmax(0, 1fr) 20rem;
      /* The conversation keeps a usable height however tall the prompt's area grows (widgets, a long dialog): the page
         scrolls to the rest instead of squeezing it to a few lines. */
      grid-template-rows: auto minmax(min(22rem, 60dvh), 1fr) auto auto;
      grid-template-areas: "bar commands" "conversation commands" "composer commands" "footer commands";
      gap: 0.6rem 1.25rem;
    }
    .bar { grid-area: bar; display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem;
      padding-block-end: 0.6rem; border-block-end: 1px solid var(--demo-border); }
    .title { display: flex; align-items: baseline; gap: 0.75rem; margin-inline-end: auto; }
    .model { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 0.75rem; }
    .conversation { grid-area: conversation; min-block-size: 0; display: grid; grid-template-columns: minmax(0, 1fr);
      position: relative;
      border: 1px solid var(--demo-border); border-radius: 6px; overflow: hidden; }
    pi-transcript { min-block-size: 0; }
    .empty { position: absolute; inset: 0; margin: auto; block-size: fit-content; padding: 1rem; text-align: center;
      color: var(--demo-muted); pointer-events: none; }
    .composer { grid-area: composer; display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.5rem; }
    .suggestions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; font-size: 0.85rem; }
    .suggestions span { color: var(--demo-muted); }
    .suggestions button { font: inherit; cursor: pointer; padding: 0.25rem 0.7rem; border-radius: 999px;
      border: 1px solid var(--demo-border); background: var(--demo-code-bg); color: inherit; }
    .suggestions button:disabled { cursor: default; opacity: 0.6; }
    .footer { grid-area: footer; display: grid; gap: 0.25rem; padding-block-start: 0.4rem;
      border-block-start: 1px solid var(--demo-border); }
    .commands { grid-area: commands; min-block-size: 0; overflow: auto; }
    /* Narrower: the commands go below the footer, the page scrolls past them. */
    @media (max-width: 72rem) {
      :host { block-size: auto; }
      .app {
        block-size: auto;
        grid-template-columns: minmax(0, 1fr);
        grid-template-rows: auto minmax(16rem, calc(100dvh - 18rem)) auto auto auto;
        grid-template-areas: "bar" "conversation" "composer" "footer" "commands";
      }
      .commands { overflow: visible; padding-block-start: 0.5rem; border-block-start: 1px solid var(--demo-border); }
    }
    pi-notifications[floating] { inset-block-start: 7rem; inset-block-end: auto; }
    @media (max-width: 30rem) {
      pi-notifications[floating] { inset-block-start: 0.5rem; }
    }
  `;
}

customElements.define("demo-live", DemoLive);
