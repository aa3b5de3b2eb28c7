/**
 * Two small pieces the playground and the live page share: the slash commands the agent offers (from
 * `get_commands`, each a button that sends it as a prompt) and the connection indicator (the transport's state and
 * the agent's exit, as the bridge reports it).
 */
import type { PiSession, SlashCommand, UiSnapshot } from "@pi-elements/core";
import { css, html, LitElement, type PropertyValues } from "lit";

export class DemoCommandList extends LitElement {
  static override properties = { session: { attribute: false }, commands: { state: true }, error: { state: true } };
  declare session: PiSession | undefined;
  declare commands: readonly SlashCommand[];
  declare error: string;

  constructor() {
    super();
    this.commands = [];
    this.error = "";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("session")) void this.load();
  }

  async load(): Promise<void> {
    if (!this.session) return;
    try {
      const { commands } = await this.session.send("get_commands", {}, { timeout: 10_000 });
      this.commands = commands;
      this.error = "";
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  /**
   * Sends the command as a prompt. pi's refusal is shown by the session itself (an error notification); a session
   * closed because the page moved on has nobody left to tell.
   */
  #run(name: string): void {
    this.session?.send("prompt", { message: `/${name}` }).catch(() => {});
  }

  override render() {
    return html`
      <h2>Slash commands</h2>
      ${this.error ? html`<p role="alert">Could not list commands: ${this.error}</p>` : ""}
      <ul>
        ${this.commands.map(
          (command) => html`<li>
            <button type="button" dir="ltr" @click=${() => this.#run(command.name)}>
              /${command.name}
            </button>
            <span>${command.description ?? ""}</span>
          </li>`,
        )}
      </ul>
    `;
  }

  static override styles = css`
    h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; margin: 0 0 0.5rem; color: var(--demo-muted); }
    ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.3rem; }
    li { display: grid; grid-template-columns: 9rem 1fr; gap: 0.5rem; align-items: baseline; font-size: 0.85rem; }
    button { font: inherit; font-family: ui-monospace, monospace; text-align: start; cursor: pointer; padding: 0.2rem 0.45rem;
      border-radius: 4px; border: 1px solid var(--demo-border); background: var(--demo-code-bg); color: inherit; }
    span { color: var(--demo-muted); }
  `;
}

export class DemoConnection extends LitElement {
  static override properties = { session: { attribute: false }, snapshot: { state: true } };
  declare session: PiSession | undefined;
  declare snapshot: UiSnapshot | undefined;
  #unsubscribe: (() => void) | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has("session")) return;
    this.#unsubscribe?.();
    const session = this.session;
    this.snapshot = session?.ui.getSnapshot();
    this.#unsubscribe = session?.ui.subscribe(() => {
      this.snapshot = session.ui.getSnapshot();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.session && !this.#unsubscribe) this.requestUpdate("session");
  }

  override render() {
    const snapshot = this.snapshot;
    if (!snapshot) return html``;
    const exit = snapshot.agentExit;
    const label = exit
      ? `The agent exited (code ${exit.code ?? exit.signal ?? "?"})`
      : { connecting: "Connecting…", open: "Connected", reconnecting: "Reconnecting…", closed: "Disconnected" }[
          snapshot.connection
        ];
    const state = exit ? "exited" : snapshot.connection;
    return html`<p role="status" class=${state}><span class="dot" aria-hidden="true"></span>${label}</p>
      ${exit?.stderrTail.length ? html`<pre>${exit.stderrTail.join("\n")}</pre>` : ""}`;
  }

  static override styles = css`
    p { margin: 0; display: inline-flex; align-items: center; gap: 0.4rem; font-size: 0.85rem; }
    .dot { width: 0.6rem; height: 0.6rem; border-radius: 50%; background: #808080; }
    .open .dot { background: #3a9a5b; }
    .connecting .dot, .reconnecting .dot { background: #c79a1e; }
    .closed .dot, .exited .dot { background: #cc4444; }
    pre { font-size: 0.75rem; max-height: 8rem; overflow: auto; }
  `;
}

customElements.define("demo-command-list", DemoCommandList);
customElements.define("demo-connection", DemoConnection);
