/**
 * The live page: the same UI over a WebSocket to the bridge and a real pi. The bridge URL, token included, comes
 * from the page's `?bridge=` parameter, which the demo command prints.
 */
import { PiSession, WebSocketTransport } from "@pi-elements/core";
import { css, html, LitElement } from "lit";
import { agentConsole } from "../app/agent-console.js";

export function bridgeUrlFromPage(): string | undefined {
  return new URLSearchParams(location.search).get("bridge") ?? undefined;
}

export class DemoLive extends LitElement {
  static override properties = { session: { state: true } };
  declare session: PiSession | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    const url = bridgeUrlFromPage();
    if (url && !this.session) this.session = new PiSession(new WebSocketTransport(url, { framing: "jsonl" }));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session?.close();
    this.session = undefined;
  }

  override render() {
    if (!this.session) {
      return html`<h1>Live</h1>
        <p>No bridge URL. Start the demo with <code>bash scripts/demo.sh</code> and open the URL it prints, or add
          <code>?bridge=ws://127.0.0.1:8787/?token=…</code> to this page's address.</p>`;
    }
    return html`
      <header>
        <h1>Live</h1>
        <demo-connection .session=${this.session}></demo-connection>
      </header>
      <div class="layout">
        ${agentConsole(this.session)}
        <demo-command-list .session=${this.session}></demo-command-list>
      </div>
    `;
  }

  static override styles = css`
    header { display: flex; align-items: baseline; gap: 1rem; margin-bottom: 1rem; }
    h1 { margin: 0; font-size: 1.4rem; }
    .layout { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; gap: 1.5rem; align-items: start; }
    .console { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.75rem; }
    @media (max-width: 60rem) { .layout { grid-template-columns: 1fr; } }
  `;
}

customElements.define("demo-live", DemoLive);
