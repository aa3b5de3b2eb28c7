import type { ModelInfo, PiSession } from "@pi-elements/core";
import { css, html, nothing, type PropertyValues } from "lit";
import { PiElement } from "../../base/pi-element.js";
import { ConversationStoreController } from "../../controllers/conversation-store-controller.js";
import { ImeGuardController } from "../../controllers/ime-guard-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { normalizeForMatch } from "../../controllers/typeahead-controller.js";
import { localize, localizeIn, nearestLang } from "../../i18n/localize.js";
import { emit } from "../../internal/events.js";
import { formatTokens } from "../../internal/format-tokens.js";
import { agentDown } from "../../internal/session-end.js";
import { tokens } from "../../theme/tokens.js";
import { type ModelPickerStringKey, modelPickerStrings } from "./strings.js";

/** One model in the list: its index in pi's `get_available_models` answer is its stable id here. */
interface Entry {
  readonly index: number;
  readonly model: ModelInfo;
  readonly current: boolean;
}

const sameModel = (a: ModelInfo | undefined, b: ModelInfo | undefined) =>
  !!a && !!b && a.provider === b.provider && a.id === b.id;

/**
 * The models pi has (`get_available_models`) grouped by provider: the current model's provider first and the current
 * model first in it, then pi's order. Each entry shows the model's name and id, whether it reasons, and its context
 * window as pi's footer writes it (128k).
 */
export function groupModels(
  models: readonly ModelInfo[],
  current: ModelInfo | undefined,
): Array<{ provider: string; entries: Entry[] }> {
  const groups = new Map<string, Entry[]>();
  if (current) groups.set(current.provider, []);
  models.forEach((model, index) => {
    if (typeof model?.provider !== "string" || typeof model.id !== "string") return;
    const entry = { index, model, current: sameModel(model, current) };
    const group = groups.get(model.provider) ?? [];
    if (entry.current) group.unshift(entry);
    else group.push(entry);
    groups.set(model.provider, group);
  });
  return [...groups].filter(([, entries]) => entries.length > 0).map(([provider, entries]) => ({ provider, entries }));
}

/**
 * Chooses pi's model, as pi's `/model` selector does: a button showing the current model opens a list of every model
 * pi has, grouped by provider, current first, with a filter field that keeps focus (an APG combobox with a listbox
 * popup). Typing filters by provider, id or name (an IME can compose in it); Up/Down and PageUp/PageDown move, Enter
 * chooses, Esc closes and gives focus back to the button, as does Tab away. A click chooses too.
 *
 * Choosing sends `{type: "set_model", provider, modelId}`; the session's conversation store takes the model from
 * pi's answer and asks pi for its state and thinking levels again (the core's refresh rule). While pi answers the
 * button says so; pi's refusal ("Model not found: …") shows under it, in words. Works the same on pi 0.73.1 and 1.6.0,
 * and while pi streams (pi uses the new model from its next turn).
 *
 * @event pi-model-change - pi took the model: `detail: { model }` (pi's model object).
 * @csspart base - The button and its popup.
 * @csspart button - The button showing the current model (`trigger-button`).
 * @csspart trigger-button - The button showing the current model.
 * @csspart trigger - The same as `trigger-button`: its earlier name, kept as an alias.
 * @csspart popup - The filter and the list, while open.
 * @csspart filter - The filter field (the combobox).
 * @csspart listbox - The list of models.
 * @csspart group - One provider's models; `group-label` is its name.
 * @csspart option - One model; `active` marks the current option, `current` pi's model.
 * @csspart badge - "reasoning" and the context window of a model.
 * @csspart empty - Loading, no models, or nothing matches.
 * @csspart status - "Switching to …" while pi answers.
 * @csspart note - Why the button is disabled: pi is not running, or the session has ended (muted, as a hint).
 * @csspart error - pi's refusal, in an alert.
 * @cssprop --pi-color-selected-bg - Background of the active option.
 */
export class PiModelPicker extends PiElement {
  static override styles = [
    tokens,
    css`
      :host {
        display: inline-block;
        position: relative;
      }
      [part~="trigger"] {
        font: inherit;
        color: var(--_text);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.15em 0.5em;
        cursor: pointer;
        max-inline-size: 100%;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      [part~="trigger"]::after {
        content: " ▾";
        color: var(--_muted);
      }
      .provider,
      .id {
        color: var(--_muted);
      }
      [part~="popup"] {
        position: absolute;
        z-index: 10;
        inset-block-start: calc(100% + 2px);
        inset-inline-start: 0;
        min-inline-size: min(30rem, 90vw);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        box-shadow: 0 4px 16px rgb(0 0 0 / 0.2);
        padding: calc(var(--_space) / 2);
      }
      [part~="filter"] {
        box-sizing: border-box;
        inline-size: 100%;
        font: inherit;
        color: var(--_text);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.25em 0.5em;
      }
      [part~="listbox"] {
        max-block-size: 18rem;
        overflow-y: auto;
        margin-block-start: calc(var(--_space) / 2);
      }
      [part~="group-label"] {
        color: var(--_muted);
        font-size: 0.85em;
        padding: 0.3em 0.5em 0.1em;
      }
      [part~="option"] {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 0 1ch;
        padding: 0.2em 0.5em;
        border-radius: calc(var(--_radius) / 2);
        cursor: pointer;
      }
      [part~="active"] {
        background: var(--_selected-bg);
      }
      /* The muted parts of the active option are in the text colour: muted fails contrast on the selection. */
      [part~="active"] .id,
      [part~="active"] [part~="badge"] {
        color: var(--_text);
      }
      [part~="current"] .name::before {
        content: "✓ ";
      }
      [part~="badge"] {
        font-size: 0.8em;
        color: var(--_muted);
        border: 1px solid var(--_border);
        border-radius: 999px;
        padding: 0 0.5em;
      }
      [part~="empty"],
      [part~="status"] {
        color: var(--_muted);
        margin: 0.3em 0.5em;
      }
      [part~="note"] {
        color: var(--_muted);
        margin: 0.3em 0 0;
      }
      [part~="error"] {
        color: var(--_error);
        margin: 0.25em 0 0;
      }
    `,
  ];

  static override properties = {
    session: { attribute: false },
    open: { type: Boolean, reflect: true },
    filterText: { state: true },
    activeIndex: { state: true },
    pending: { state: true },
    error: { state: true },
  };

  /**
   * The session whose model to show and set; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** Whether the list is open. */
  declare open: boolean;
  /** @internal */
  declare filterText: string;
  /**
   * Index (into pi's models) of the active option; -1 when none.
   * @internal
   */
  declare activeIndex: number;
  /**
   * The model asked for, until pi answers.
   * @internal
   */
  declare pending: ModelInfo | undefined;
  /** @internal */
  declare error: string | undefined;

  readonly #store = new ConversationStoreController(this, (s) => ({
    model: s.info.model,
    models: s.info.availableModels,
  }));
  readonly #ime = new ImeGuardController(this);
  /** Whether the agent process is gone (its exit reported): no model can be chosen then. */
  readonly #agent = new SessionStoreController(this, agentDown);

  constructor() {
    super();
    this.open = false;
    this.filterText = "";
    this.activeIndex = -1;
  }

  /** pi's current model; undefined until pi said. */
  get model(): ModelInfo | undefined {
    return this.#store.value?.model;
  }

  #t(key: ModelPickerStringKey, values?: Record<string, string | number>): string {
    return localizeIn(modelPickerStrings, this, key, values, this.strings as never);
  }

  /** The groups after the filter. */
  get #groups() {
    const all = groupModels(this.#store.value?.models ?? [], this.model);
    const needle = normalizeForMatch(this.filterText.trim());
    if (needle === "") return all;
    return all
      .map((g) => ({
        provider: g.provider,
        entries: g.entries.filter(({ model }) =>
          normalizeForMatch(`${model.provider} ${model.id} ${model.name ?? ""}`).includes(needle),
        ),
      }))
      .filter((g) => g.entries.length > 0);
  }

  get #visible(): Entry[] {
    return this.#groups.flatMap((g) => g.entries);
  }

  /** Opens the list, the current model active, focus in the filter. */
  async show(): Promise<void> {
    this.filterText = "";
    this.open = true;
    this.activeIndex = this.#visible[0]?.index ?? -1;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>("[part~=filter]")?.focus();
  }

  /** Closes the list; `refocus` gives focus back to the button. */
  close(refocus = true): void {
    if (!this.open) return;
    this.open = false;
    if (refocus) this.renderRoot.querySelector<HTMLElement>("[part~=trigger]")?.focus();
  }

  /** Asks pi for `model`; resolves true when pi took it. pi's refusal shows under the button. */
  async choose(model: ModelInfo): Promise<boolean> {
    const session = this.#store.session;
    if (!session) return false;
    this.close();
    this.pending = model;
    this.error = undefined;
    try {
      const taken = await session.send("set_model", { provider: model.provider, modelId: model.id }, { report: false });
      emit(this, "pi-model-change", { model: taken });
      return true;
    } catch (error) {
      this.error = this.#t("failed", { error: error instanceof Error ? error.message : String(error) });
      return false;
    } finally {
      this.pending = undefined;
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.open && (changed.has("filterText") || changed.has("open") || !changed.size)) {
      const visible = this.#visible;
      if (!visible.some((e) => e.index === this.activeIndex)) this.activeIndex = visible[0]?.index ?? -1;
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (this.open && (changed.has("activeIndex") || changed.has("open"))) {
      this.renderRoot.querySelector(`#option-${this.activeIndex}`)?.scrollIntoView({ block: "nearest" });
    }
  }

  #moveBy(delta: number): void {
    const visible = this.#visible;
    if (visible.length === 0) return;
    const at = Math.max(
      visible.findIndex((e) => e.index === this.activeIndex),
      0,
    );
    this.activeIndex = visible[Math.min(Math.max(at + delta, 0), visible.length - 1)]?.index ?? -1;
  }

  #onFilterKeydown = (event: KeyboardEvent) => {
    if (this.#ime.isComposing(event)) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      this.#moveBy(move);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const entry = this.#visible.find((e) => e.index === this.activeIndex);
      if (entry) void this.choose(entry.model);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      this.close();
    }
  };

  #onTriggerKeydown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      void this.show();
    }
  };

  #onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (this.open && !(next && this.renderRoot.contains(next))) this.close(false);
  };

  #name(model: ModelInfo | undefined): string {
    return model ? (typeof model.name === "string" && model.name !== "" ? model.name : model.id) : this.#t("noModel");
  }

  #number(value: number): string {
    try {
      return new Intl.NumberFormat(nearestLang(this)).format(value);
    } catch {
      return String(value);
    }
  }

  #renderOption({ index, model, current }: Entry) {
    const active = index === this.activeIndex;
    const window = typeof model["contextWindow"] === "number" ? model["contextWindow"] : undefined;
    const parts = ["option", active ? "active" : "", current ? "current" : ""].filter(Boolean).join(" ");
    return html`<div
      id="option-${index}"
      part=${parts}
      role="option"
      aria-selected=${active ? "true" : "false"}
      data-provider=${model.provider}
      data-id=${model.id}
      @click=${() => void this.choose(model)}
    >
      <bdi class="name">${this.#name(model)}</bdi>${current ? html`<span class="visually-hidden">(${this.#t("current")})</span>` : nothing}
      ${model.name && model.name !== model.id ? html`<bdi class="id">${model.id}</bdi>` : nothing}
      ${model["reasoning"] ? html`<span part="badge">${this.#t("reasoning")}</span>` : nothing}
      ${
        window
          ? html`<span part="badge"
              ><span aria-hidden="true">${this.#t("context", { window: formatTokens(window) })}</span
              ><span class="visually-hidden">${this.#t("contextSpoken", { window: this.#number(window) })}</span></span
            >`
          : nothing
      }
    </div>`;
  }

  #renderPopup() {
    const models = this.#store.value?.models;
    const groups = this.#groups;
    const hasOptions = groups.length > 0;
    const empty = models === undefined ? "loading" : models.length === 0 ? "none" : "noMatches";
    return html`<div part="popup" id="popup">
      <input
        part="filter"
        dir="auto"
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck="false"
        aria-label=${this.#t("filter")}
        placeholder=${this.#t("filter")}
        aria-autocomplete="list"
        aria-expanded=${hasOptions ? "true" : "false"}
        aria-controls=${hasOptions ? "listbox" : nothing}
        aria-activedescendant=${hasOptions && this.activeIndex >= 0 ? `option-${this.activeIndex}` : nothing}
        .value=${this.filterText}
        @input=${(event: Event) => {
          this.filterText = (event.target as HTMLInputElement).value;
        }}
        @keydown=${this.#onFilterKeydown}
      />
      ${
        hasOptions
          ? html`<div
              id="listbox"
              part="listbox"
              role="listbox"
              aria-label=${this.#t("models")}
              @mousedown=${(event: MouseEvent) => event.preventDefault()}
            >
              ${groups.map(
                (g, i) => html`<div part="group" role="group" aria-labelledby="group-${i}">
                  <div part="group-label" id="group-${i}" role="presentation"><bdi>${g.provider}</bdi></div>
                  ${g.entries.map((entry) => this.#renderOption(entry))}
                </div>`,
              )}
            </div>`
          : html`<p part="empty" role="status">${this.#t(empty)}</p>`
      }
    </div>`;
  }

  /** Why the picker is disabled: an ended session's own words (a refused token says what to do), else pi's exit. */
  #downText(): string {
    return this.#agent.value?.ended ? localize(this, "sessionEndedShort") : this.#t("agentDown");
  }

  protected override render() {
    const shown = this.pending ?? this.model;
    const label = this.#t("button", { model: this.#name(shown) });
    const down = this.#agent.value?.down === true;
    return html`<div part="base" @focusout=${this.#onFocusOut}>
        <button
          part="button trigger-button trigger"
          type="button"
          aria-haspopup="listbox"
          aria-expanded=${this.open ? "true" : "false"}
          aria-label=${label}
          aria-busy=${this.pending ? "true" : nothing}
          aria-describedby=${down ? "note" : nothing}
          ?disabled=${!this.#store.session || down}
          @click=${() => (this.open ? this.close() : void this.show())}
          @keydown=${this.#onTriggerKeydown}
        >
          ${shown ? html`<span class="provider">(<bdi>${shown.provider}</bdi>)</span> ` : nothing}<bdi>${this.#name(shown)}</bdi>
        </button>
        ${this.open ? this.#renderPopup() : nothing}
      </div>
      ${down ? html`<p id="note" part="note">${this.#downText()}</p>` : nothing}
      ${this.pending ? html`<p part="status" role="status">${this.#t("switching", { model: this.#name(this.pending) })}</p>` : nothing}
      ${this.error ? html`<p part="error" role="alert">${this.error}</p>` : nothing}`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "pi-model-change": CustomEvent<{ model: ModelInfo }>;
  }
}
