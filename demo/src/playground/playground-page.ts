/** The playground: the whole UI driven by the in-page simulated agent; no pi needed. */
import { createMemoryPair, PiSession } from "@pi-elements/core";
import { css, html, LitElement } from "lit";
import { agentConsole } from "../app/agent-console.js";
import { SimulatedAgent } from "./simulated-agent.js";

export class DemoPlayground extends LitElement {
  readonly session: PiSession;

  constructor() {
    super();
    const [agentEnd, pageEnd] = createMemoryPair();
    this.session = new PiSession(pageEnd);
    new SimulatedAgent(agentEnd);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.session.close();
  }

  override render() {
    return html`
      <header>
        <h1>Playground</h1>
        <p>A simulated agent runs inside this page and speaks pi's protocol. Type a slash command in the prompt,
          or press one of the buttons.</p>
      </header>
      <div class="layout">
        ${agentConsole(this.session, { syncTitle: false })}
        <demo-command-list .session=${this.session}></demo-command-list>
      </div>
    `;
  }

  static override styles = css`
    h1 { margin: 0 0 0.25rem; font-size: 1.4rem; }
    header p { margin: 0 0 1rem; color: var(--demo-muted); }
    .layout { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; gap: 1.5rem; align-items: start; }
    .console { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0.75rem; }
    @media (max-width: 60rem) { .layout { grid-template-columns: 1fr; } }
  `;
}

customElements.define("demo-playground", DemoPlayground);
