import type { PiSession, SessionInfo, ThinkingLevel } from "@pi-elements/core";
import { css, html, nothing } from "lit";
import { PiElement } from "../../base/pi-element.js";
import { ConversationStoreController } from "../../controllers/conversation-store-controller.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localize, localizeIn } from "../../i18n/localize.js";
import { agentDown } from "../../internal/session-end.js";
import { tokens } from "../../theme/tokens.js";
import { type ThinkingLevelStringKey, thinkingLevelStrings } from "./strings.js";

/** pi 0.73.1's levels for a reasoning model (`EXTENDED_THINKING_LEVELS` of its pi-ai), in its order. */
const PI_073_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/**
 * The levels to offer. pi 1.6 says (`get_available_thinking_levels`). pi 0.73.1 has no such command, but the model
 * `get_state` gives is pi's whole model object, so its own rule (pi-ai 0.73.1 `getSupportedThinkingLevels`, which its
 * `cycle_thinking_level` and clamping use) is applied to it here: a model without `reasoning` has only "off"; a
 * reasoning one has off … high, less any level its `thinkingLevelMap` maps to null, and "xhigh" only where the map
 * names it. Without a model, only the current level. The current level is always among them.
 */
export function offeredThinkingLevels(info: SessionInfo): readonly ThinkingLevel[] {
  const current = info.thinkingLevel;
  let levels: readonly ThinkingLevel[];
  if (info.availableThinkingLevels) levels = info.availableThinkingLevels;
  else if (!info.model) levels = [];
  else if (!info.model["reasoning"]) levels = ["off"];
  else {
    const map = info.model["thinkingLevelMap"];
    const mapped = (level: string) =>
      typeof map === "object" && map !== null ? (map as Record<string, unknown>)[level] : undefined;
    levels = PI_073_LEVELS.filter((level) =>
      mapped(level) === null ? false : level === "xhigh" ? mapped(level) !== undefined : true,
    );
  }
  return current && !levels.includes(current) ? [...levels, current] : levels;
}

/**
 * The thinking level, as pi's footer shows it after the model (`• high`) and its shift+tab cycles it: a native
 * select of the levels the model has (pi 1.x says which; on 0.73.1, which lacks `get_available_thinking_levels`, pi's own rule is applied to the model: see docs/session-controls.md).
 * Choosing one sends `{type: "set_thinking_level", level}`; the session's conversation store then takes the level and
 * asks pi what it chose (pi clamps a level the model lacks). A model that does not reason offers only "off", and the
 * select is disabled with the reason beside it. pi's refusal shows beside the select, in words.
 *
 * @csspart base - The label and the select.
 * @csspart select - The native `<select>`.
 * @csspart note - Why the select is disabled.
 * @csspart error - pi's refusal, in an alert.
 * @cssprop --pi-color-error - The error text.
 */
export class PiThinkingLevel extends PiElement {
  static override styles = [
    tokens,
    css`
      :host {
        display: inline-block;
      }
      [part~="base"] {
        display: inline-flex;
        align-items: center;
        gap: var(--_space);
      }
      select {
        font: inherit;
        color: var(--_text);
        background: var(--_bg);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.15em 0.4em;
      }
      select:disabled {
        color: var(--_muted);
      }
      [part~="note"] {
        color: var(--_muted);
        margin: 0;
      }
      [part~="error"] {
        color: var(--_error);
        margin: 0.25em 0 0;
      }
    `,
  ];

  static override properties = {
    session: { attribute: false },
    error: { state: true },
    pending: { state: true },
  };

  /**
   * The session whose thinking level to show and set; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** @internal */
  declare error: string | undefined;
  /**
   * The level asked for, until pi answers.
   * @internal
   */
  declare pending: ThinkingLevel | undefined;

  readonly #store = new ConversationStoreController(this, (s) => s.info, { equals: Object.is });
  /** Whether the agent process is gone (its exit reported): nothing can be set then. */
  readonly #agent = new SessionStoreController(this, agentDown);
  /** The info when `pending` was asked for: `pending` goes once the store has a newer one. */
  #pendingFrom: SessionInfo | undefined;

  /** The level pi reports (or the one just asked for); undefined until pi said. */
  get level(): ThinkingLevel | undefined {
    return this.pending ?? this.#store.value?.thinkingLevel;
  }

  /** The levels offered. */
  get levels(): readonly ThinkingLevel[] {
    const info = this.#store.value;
    return info ? offeredThinkingLevels(info) : [];
  }

  #t(key: ThinkingLevelStringKey, values?: Record<string, string | number>): string {
    return localizeIn(thinkingLevelStrings, this, key, values, this.strings as never);
  }

  /** Asks pi for `level`; resolves true when pi took it. pi's refusal shows beside the select. */
  async setLevel(level: ThinkingLevel): Promise<boolean> {
    const session = this.#store.session;
    if (!session) return false;
    this.pending = level;
    this.#pendingFrom = this.#store.value;
    this.error = undefined;
    try {
      await session.send("set_thinking_level", { level }, { report: false });
      // Shown until the store has taken pi's answer (its next snapshot), so the select does not flick back.
      if (this.#store.value !== this.#pendingFrom) this.pending = undefined;
      return true;
    } catch (error) {
      this.error = this.#t("failed", { error: error instanceof Error ? error.message : String(error) });
      this.pending = undefined;
      return false;
    }
  }

  protected override willUpdate(): void {
    if (this.pending !== undefined && this.#store.value !== this.#pendingFrom) this.pending = undefined;
  }

  /** The select shows the level after every render: a refused choice goes back to pi's level. */
  protected override updated(): void {
    const select = this.renderRoot.querySelector("select");
    if (select && this.level !== undefined) select.value = this.level;
  }

  protected override render() {
    const info = this.#store.value;
    const levels = this.levels;
    const level = this.level;
    const down = this.#agent.value?.down === true;
    const ended = this.#agent.value?.ended;
    const reason = down
      ? "agentDown"
      : !info?.model && levels.length === 0
        ? "noModel"
        : levels.length <= 1 && info?.model
          ? "noReasoning"
          : undefined;
    const known = (l: string): l is ThinkingLevelStringKey => Object.hasOwn(thinkingLevelStrings.en, l);
    return html`<span part="base">
        <label for="select">${this.#t("label")}</label>
        <select
          id="select"
          part="select"
          ?disabled=${!this.#store.session || levels.length <= 1 || down}
          aria-describedby=${[reason ? "note" : "", this.error ? "error" : ""].filter(Boolean).join(" ") || nothing}
          @change=${(event: Event) => void this.setLevel((event.target as HTMLSelectElement).value as ThinkingLevel)}
        >
          ${levels.map((l) => html`<option value=${l} ?selected=${l === level}>${known(l) ? this.#t(l) : l}</option>`)}
        </select>
        ${reason ? html`<span id="note" part="note">${ended && down ? localize(this, "sessionEndedShort") : this.#t(reason)}</span>` : nothing}
      </span>
      ${this.error ? html`<p id="error" part="error" role="alert">${this.error}</p>` : nothing}`;
  }
}
