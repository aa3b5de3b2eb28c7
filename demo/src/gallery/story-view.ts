/**
 * One story on screen: the stage (with the gallery's theme, language and direction), the knobs, and the event
 * log of the exact JSON the agent received.
 */
import { css, html, LitElement, type PropertyValues } from "lit";
import { type Args, defaultArgs, type Knob, readEscapes, type Story, showEscapes } from "./story.js";
import { StoryAgent } from "./story-agent.js";

export class DemoStoryView extends LitElement {
  static override properties = {
    story: { attribute: false },
    theme: {},
    lang: {},
    dir: {},
    args: { state: true },
    log: { state: true },
  };
  declare story: Story | undefined;
  declare theme: "auto" | "light" | "dark";
  declare args: Args<Story["knobs"]>;
  declare log: readonly string[];
  #agent: StoryAgent | undefined;

  constructor() {
    super();
    this.theme = "auto";
    this.args = {};
    this.log = [];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("story") && this.story) this.args = defaultArgs(this.story.knobs);
    if (changed.has("story") || changed.has("args")) this.#restart();
  }

  protected override updated(changed: PropertyValues<this>): void {
    if ((changed.has("story") || changed.has("args")) && this.story && this.#agent) {
      // Elements are in the DOM now: let the agent speak.
      void this.story.play?.(this.#agent, this.args);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#agent?.close();
  }

  #restart(): void {
    this.#agent?.close();
    const agent = new StoryAgent();
    agent.addEventListener("received", () => {
      this.log = agent.received.map((record) => record.line);
    });
    this.#agent = agent;
    this.log = [];
  }

  #setArg(key: string, value: string | number | boolean): void {
    this.args = { ...this.args, [key]: value };
  }

  override render() {
    const story = this.story;
    if (!story || !this.#agent) return html``;
    const scheme = this.theme === "auto" ? "" : `--pi-color-scheme: ${this.theme}; color-scheme: ${this.theme}`;
    return html`
      <section class="stage" style=${scheme} aria-label="Stage" lang=${this.lang || "en"} dir=${this.dir || "ltr"}>
        ${story.render({ session: this.#agent.session, agent: this.#agent }, this.args)}
      </section>
      <aside class="side">
        ${
          Object.keys(story.knobs).length > 0
            ? html`<form class="knobs" @submit=${(e: Event) => e.preventDefault()}>
              <h2>Controls</h2>
              ${Object.entries(story.knobs).map(([key, knob]) => this.#renderKnob(key, knob))}
            </form>`
            : ""
        }
        <section class="log">
          <h2>Sent to the agent</h2>
          <button type="button" @click=${() => {
            this.args = { ...this.args };
          }}>Restart story</button>
          <ol aria-live="polite">
            ${this.log.length === 0 ? html`<li class="empty" dir="auto">Nothing yet. Answers to dialogs and prompts appear here, exactly as the agent receives them.</li>` : ""}
            ${
              // JSON reads left to right on a right-to-left page too (its braces and quotes stay at their ends).
              this.log.map((line) => html`<li><code dir="ltr">${line}</code></li>`)
            }
          </ol>
        </section>
      </aside>
    `;
  }

  #renderKnob(key: string, knob: Knob) {
    const value = this.args[key];
    const id = `knob-${key}`;
    switch (knob.type) {
      case "boolean":
        return html`<label><input id=${id} type="checkbox" .checked=${Boolean(value)}
          @change=${(e: Event) => this.#setArg(key, (e.target as HTMLInputElement).checked)} /> ${key}</label>`;
      case "number":
        return html`<label for=${id}>${key}</label><input id=${id} type="number" .value=${String(value)}
          min=${knob.min ?? ""} max=${knob.max ?? ""} step=${knob.step ?? 1}
          @change=${(e: Event) => this.#setArg(key, Number((e.target as HTMLInputElement).value))} />`;
      case "choice":
        return html`<label for=${id}>${key}</label><select id=${id}
          @change=${(e: Event) => this.#setArg(key, (e.target as HTMLSelectElement).value)}>
          ${knob.options.map((option) => html`<option ?selected=${option === value}>${option}</option>`)}
        </select>`;
      default: {
        // ESC is invisible in a text field (or a box glyph): an ANSI knob shows and takes it as \e.
        const shown = knob.ansi ? showEscapes(String(value)) : String(value);
        const read = (e: Event) => {
          const text = (e.target as HTMLInputElement | HTMLTextAreaElement).value;
          this.#setArg(key, knob.ansi ? readEscapes(text) : text);
        };
        return knob.multiline
          ? html`<label for=${id}>${key}</label><textarea id=${id} rows="4" dir="auto" .value=${shown} @change=${read}></textarea>`
          : html`<label for=${id}>${key}</label><input id=${id} dir="auto" .value=${shown} @change=${read} />`;
      }
    }
  }

  static override styles = css`
    :host { display: grid; grid-template-columns: minmax(0, 1fr) 22rem; gap: 1rem; align-items: start; }
    .stage { padding: 1.5rem; border: 1px solid var(--demo-border); border-radius: 8px; min-height: 12rem;
      background: light-dark(#ffffff, #1e1e24); color: light-dark(#1f2328, #e4e4e4); }
    .side { display: grid; gap: 1rem; }
    .knobs { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 0.6rem; align-items: center; }
    .knobs h2, .knobs label:has(input[type="checkbox"]) { grid-column: 1 / -1; }
    /* Each engine has its own form-control font (WebKit's text areas are proportional, the others' monospace). */
    .knobs :is(input, select, textarea) { font: inherit; font-size: 0.85rem; }
    .knobs textarea { font-family: ui-monospace, monospace; }
    h2 { margin: 0; font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.05em; color: var(--demo-muted); }
    .log ol { list-style: none; margin: 0.5rem 0 0; padding: 0; display: grid; gap: 0.35rem; max-height: 24rem; overflow: auto; }
    .log code { display: block; font-size: 0.75rem; white-space: pre-wrap; word-break: break-all; padding: 0.35rem 0.5rem;
      border-radius: 4px; background: var(--demo-code-bg); }
    .empty { color: var(--demo-muted); font-size: 0.85rem; }
    @media (max-width: 60rem) { :host { grid-template-columns: minmax(0, 1fr); } }
    @media (max-width: 30rem) { .stage { padding: 0.75rem; } .knobs { grid-template-columns: minmax(0, 1fr); } }
  `;
}

customElements.define("demo-story-view", DemoStoryView);
