import type { ModelInfo, PiSession, SessionStats } from "@pi-elements/core";
import { css, html, nothing } from "lit";
import { PiElement } from "../../base/pi-element.js";
import { ConversationStoreController } from "../../controllers/conversation-store-controller.js";
import { localizeIn, nearestLang } from "../../i18n/localize.js";
import { formatTokens } from "../../internal/format-tokens.js";
import { tokens } from "../../theme/tokens.js";
import { type SessionStatsStringKey, sessionStatsStrings } from "./strings.js";

/** How full the context is, with pi's footer thresholds: a warning past 70 %, an error past 90 %. */
export type ContextLevel = "normal" | "warning" | "error";

/** pi's footer thresholds (interactive footer.js, 0.73.1 and 1.6.0): strictly above 70 and 90 percent. */
export function contextLevel(percent: number | null | undefined): ContextLevel {
  const value = percent ?? 0;
  return value > 90 ? "error" : value > 70 ? "warning" : "normal";
}

/**
 * The session's usage as pi's footer shows it: `↑input ↓output Rcache-read Wcache-write $cost ctx%/window`, token
 * counts written as pi writes them (1.2k, 12k, 1.2M), a part left out while it is zero (as pi does), the context part
 * in the warning colour past 70 % and the error colour past 90 %, with a mark so the colour is not the only sign.
 * Right after a compaction pi does not know the context use: it shows `?/window`, as pi does.
 *
 * Each part says in words what it is, with the exact number, for screen readers and as a tooltip. pi's footer's
 * "(auto)" (auto-compaction on) and "(sub)" (a subscription) are not shown: pi's RPC does not report them here.
 *
 * The numbers are pi's `get_session_stats`, which the session's conversation store asks for on connect, after every
 * run and after a compaction (the core's refresh rule); the context window falls back to the model's.
 *
 * @csspart base - The list of parts (named "Session usage").
 * @csspart part - Each part; also `input`, `output`, `cache-read`, `cache-write`, `cost` or `context`.
 * @csspart context - The context part; carries `data-level`: "normal", "warning" or "error".
 * @cssprop --pi-color-surface - Background.
 * @cssprop --pi-color-muted - Text of the parts (pi dims its footer).
 * @cssprop --pi-color-warning - The context part past 70 %.
 * @cssprop --pi-color-error - The context part past 90 %.
 */
export class PiSessionStats extends PiElement {
  static override styles = [
    tokens,
    css`
      :host {
        display: block;
        min-inline-size: 0;
        font-family: var(--_font-mono);
        color: var(--_muted);
        /* A footer line, as pi-status-bar is: on the surface colour, which the muted text is legible on. */
        background: var(--_surface);
        padding: calc(var(--_space) / 2) var(--_space);
        line-height: 1.5;
      }
      [part~="base"] {
        margin: 0;
        padding: 0;
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        column-gap: 1ch;
      }
      [part~="part"] {
        white-space: nowrap;
        /* ↑1.2k reads left to right in every direction, as pi writes it. */
        unicode-bidi: isolate;
        direction: ltr;
      }
      [data-level="warning"] {
        color: var(--_warning);
        font-weight: 600;
      }
      [data-level="error"] {
        color: var(--_error);
        font-weight: 600;
      }
    `,
  ];

  static override properties = {
    session: { attribute: false },
  };

  /**
   * The session whose usage to show; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;

  readonly #store = new ConversationStoreController(this, (s) => ({ stats: s.info.stats, model: s.info.model }));

  /** The stats on display (pi's `get_session_stats`); undefined until pi answered. */
  get stats(): SessionStats | undefined {
    return this.#store.value?.stats;
  }

  #t(key: SessionStatsStringKey, values?: Record<string, string | number>): string {
    return localizeIn(sessionStatsStrings, this, key, values, this.strings as never);
  }

  #number(value: number, options?: Intl.NumberFormatOptions): string {
    try {
      return new Intl.NumberFormat(nearestLang(this), options).format(value);
    } catch {
      return new Intl.NumberFormat("en", options).format(value);
    }
  }

  protected override render() {
    const { stats, model } = this.#store.value ?? { stats: undefined, model: undefined };
    const parts: Array<{ name: string; shown: string; spoken: string; level?: ContextLevel }> = [];
    if (stats) {
      const t = stats.tokens;
      const counted: Array<[string, string, number, SessionStatsStringKey]> = [
        ["input", "↑", t.input, "input"],
        ["output", "↓", t.output, "output"],
        ["cache-read", "R", t.cacheRead, "cacheRead"],
        ["cache-write", "W", t.cacheWrite, "cacheWrite"],
      ];
      for (const [name, mark, count, key] of counted) {
        if (typeof count === "number" && count > 0) {
          parts.push({
            name,
            shown: `${mark}${formatTokens(count)}`,
            spoken: this.#t(key, { n: this.#number(count) }),
          });
        }
      }
      if (typeof stats.cost === "number" && stats.cost !== 0) {
        const money = this.#number(stats.cost, { style: "currency", currency: "USD", maximumFractionDigits: 3 });
        parts.push({ name: "cost", shown: `$${stats.cost.toFixed(3)}`, spoken: this.#t("cost", { n: money }) });
      }
    }
    if (stats || model) {
      const usage = stats?.contextUsage;
      const window = usage?.contextWindow ?? windowOf(model);
      const percent = usage ? usage.percent : stats ? 0 : null;
      const level = contextLevel(percent);
      const known = typeof percent === "number";
      const shown = `${known ? `${percent.toFixed(1)}%` : "?"}/${formatTokens(window)}`;
      const spoken = known
        ? this.#t("context", {
            percent: this.#number(percent / 100, { style: "percent", maximumFractionDigits: 1 }),
            window: this.#number(window),
          })
        : this.#t("contextUnknown", { window: this.#number(window) });
      parts.push({
        name: "context",
        shown,
        spoken: level === "normal" ? spoken : `${spoken}. ${this.#t(level)}`,
        level,
      });
    }
    return html`<ul part="base" aria-label=${this.#t("label")}>
      ${parts.map(
        (p) => html`<li part="part ${p.name}" title=${p.spoken} data-level=${p.level ?? nothing}>
          <span aria-hidden="true">${p.level && p.level !== "normal" ? "⚠ " : ""}${p.shown}</span><span class="visually-hidden">${p.spoken}</span>
        </li>`,
      )}
    </ul>`;
  }
}

function windowOf(model: ModelInfo | undefined): number {
  const value = model?.["contextWindow"];
  return typeof value === "number" && value > 0 ? value : 0;
}
