import {
  type Clock,
  DeadlineTimer,
  mentionsLogin,
  type NotificationEntry,
  type NotifyType,
  type PiSession,
  realClock,
  type UiStore,
} from "@pi-elements/core";
import { UiState } from "@pi-elements/core/ui-state";
import { html, nothing, type PropertyValues, svg } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { stripAnsi } from "../../ansi/parse-ansi.js";
import { renderAnsi } from "../../ansi/render-ansi.js";
import { PiElement } from "../../base/pi-element.js";
import { SessionStoreController } from "../../controllers/session-store-controller.js";
import { localizeOwn } from "../../i18n/localize.js";
import { emit } from "../../internal/events.js";
import { loginAdvice } from "../../internal/login-advice.js";
import { RemovalsFirst } from "../../internal/removals-first.js";
import { styles } from "./notifications.styles.js";

/** Each type's icon (drawn in its colour; decorative: the text says the type). */
const ICONS = {
  info: svg`<circle cx="8" cy="8" r="6.5" /><path d="M8 7.2v4M8 4.8v.1" />`,
  warning: svg`<path d="M8 1.8 15 14H1Z" /><path d="M8 6.3v3.6M8 11.9v.1" />`,
  error: svg`<circle cx="8" cy="8" r="6.5" /><path d="m5.6 5.6 4.8 4.8m0-4.8-4.8 4.8" />`,
} as const;
/** Detail of `pi-notification-dismiss`. */
export interface NotificationDismissDetail {
  id: number;
  type: NotifyType;
  message: string;
  source: "button" | "keyboard" | "timeout";
}

/**
 * A toast stack for `notify`, coloured as pi shows them: an error in red ("Error: …"), a warning in yellow
 * ("Warning: …"), info in the accent, each with its icon and coloured edge (info's text in the text colour, so it
 * reads at full contrast). An error the session reports itself names its origin after "Error:", in the muted
 * colour: "prompt failed:" for a command pi refused, the extension's file name for an `extension_error`. ANSI styling in a message is rendered (at most 1,000 styled runs per message; the rest
 * of it shows unstyled). Info and warnings dismiss themselves after `duration` ms, counted from when the
 * element first saw them and paused while the pointer is over the stack or focus is in it; errors stay until
 * dismissed. At most `max` toasts are in the DOM (the newest), with "+N more" for the other waiting ones, so a
 * burst of thousands stays cheap. Dismissing is this element's own view state; the session is not told.
 *
 * Screen readers hear each new notification once, from one polite live region; errors go to a separate
 * `role="alert"` region instead, because an error needs attention now, and one region cannot be both polite and
 * assertive. A burst is announced as its newest message. The toasts themselves are not live (their coming and
 * going would be announced again); they form a labelled list that can be visited.
 *
 * Notifications that are not news are not toasts: those pi sent before the page connected (the bridge replays them
 * on every reload and in every new tab) and those the session held before this element showed them (a page that
 * mounts it again, after a language switch) wait quietly in a collapsed "Earlier notifications (N)" list at the top of
 * the stack, unannounced and without a timer, each dismissable there. A dismissal sticks: pi's notifications are
 * remembered by pi's request id for the tab (`sessionStorage`, the newest 200), so one dismissed does not come back
 * after a reload.
 *
 * Notifications come from the `session` property, else an ancestor `<pi-session>`; without one, call `notify()`
 * (kept in the element's own store, as a session keeps what pi's `notify` sends: the newest 100).
 *
 * @event pi-notification-dismiss - A toast was dismissed. `detail: { id: number, type: "info" | "warning" | "error", message: string, source: "button" | "keyboard" | "timeout" }`.
 * @csspart base - The labelled group of toasts (absent while there are none).
 * @csspart stack - The same as `base`: its earlier name, kept as an alias.
 * @csspart more - The "+N more" line.
 * @csspart toasts - The list of visible toasts.
 * @csspart list - The same as `toasts`: its earlier name, kept as an alias.
 * @csspart toast - One notification; also `toast-info`, `toast-warning` or `toast-error`.
 * @csspart icon - The type's icon (decorative).
 * @csspart label - The "Error:" / "Warning:" prefix.
 * @csspart origin - Where an error the session reported came from: "prompt failed:" (a command pi refused) or the
 *   failing extension's file name (its full path on hover).
 * @csspart earlier - "Earlier", on a notification pi sent before the page connected (replayed by the bridge).
 * @csspart earlier-list - The collapsed list (a `<details>`) of the notifications that are not news.
 * @csspart earlier-summary - Its "Earlier notifications (N)" toggle.
 * @csspart earlier-toasts - The list inside it.
 * @csspart message - The message text.
 * @csspart login-advice - After a message that says to use /login (a command only pi's terminal runs): how to sign in
 *   instead.
 * @csspart button - Each button (the dismiss buttons).
 * @csspart dismiss-button - The dismiss button of a toast.
 * @csspart dismiss - The same as `dismiss-button`: its earlier name, kept as an alias.
 * @csspart link - An OSC 8 hyperlink inside a message.
 * @cssprop --pi-color-error - Error text and accent.
 * @cssprop --pi-color-warning - Warning text and accent.
 * @cssprop --pi-color-muted - Info text.
 * @cssprop --pi-color-surface - Toast background.
 * @cssprop --pi-notification-width - Maximum width of a toast (default 32rem).
 */
export class PiNotifications extends PiElement {
  static override styles = styles;

  static override properties = {
    session: { attribute: false },
    duration: { type: Number },
    max: { type: Number },
    floating: { type: Boolean, reflect: true },
    clock: { attribute: false },
  };

  /**
   * The session whose notifications to show; without it, an ancestor `<pi-session>`'s.
   * @default undefined
   */
  declare session: PiSession | undefined;
  /** How long info and warnings stay, in ms (default 5000). 0, a negative value or Infinity keeps them; NaN is 5000. */
  declare duration: number;
  /** The most toasts shown at once (default 5; below 1 is 1, NaN is 5); the rest are counted in "+N more". */
  declare max: number;
  /** Fixed to the bottom end corner of the viewport, over the page. */
  declare floating: boolean;
  /**
   * The clock of `notify()` without a session (its times and auto-dismissal); tests and apps can drive it. With a
   * session, its notifications are timed on `session.clock`, the one its own times are on. Default: real time.
   */
  declare clock: Clock;

  /** Where `notify()` goes: shown while no session is in use. */
  readonly #own = new UiState();
  /** The store's buffer; a new notification always makes a new array (it holds a new entry). */
  readonly #store = new SessionStoreController<readonly NotificationEntry[]>(this, (s) => s.notifications, {
    fallback: this.#own,
  });
  readonly #removalsFirst = new RemovalsFirst<NotificationEntry>(this, "list", "id", (entry) => String(entry.id));
  /** Ids dismissed or expired. Pruned to the ids still in the buffer. */
  readonly #gone = new Set<number>();
  /**
   * Clock time each timed (info, warning) notification expires, from when it was first seen; oldest first, like the
   * buffer. Pruned like `#gone`, and a dismissed id leaves it, so every id here is still showing.
   */
  readonly #deadlines = new Map<number, number>();
  #lastSeenId = 0;
  /** The newest id the source held when this element began to show it: entries up to it are not news. */
  #baselineId = 0;
  /** pi's request ids of the notifications dismissed in this tab (read once, kept in `sessionStorage`). */
  readonly #dismissed = readDismissed();
  /** The store whose notifications are shown (a session's or this element's own); undefined before the first update. */
  #source: UiStore | undefined;
  /** The one timer, towards the earliest deadline, on the clock it was made for (`clock` may change meanwhile). */
  #timer: { readonly clock: Clock; readonly timer: DeadlineTimer } | undefined;
  #pausedAt: number | undefined;
  /** What holds the countdown: the pointer over the stack, focus inside it, or both. */
  readonly #holds = new Set<"pointer" | "focus">();
  #polite = "";
  #assertive = "";
  #announcements = 0;

  constructor() {
    super();
    this.duration = 5000;
    this.max = 5;
    this.floating = false;
    this.clock = realClock;
  }

  /**
   * Shows a notification without a session (ignored for display while a session is in use). Returns its id.
   * An unknown type counts as "info"; the message is text, never markup.
   */
  notify(type: NotifyType, message: string): number {
    const id = this.#own.notify(type, String(message), this.clock.now());
    this.#store.refresh();
    return id;
  }

  /** Dismisses the notification with this id, as its button would. Returns false if it is not active. */
  dismiss(id: number): boolean {
    return this.#dismiss(id, "button");
  }

  /** The notifications not yet dismissed or expired, oldest first (the earlier ones too). */
  get active(): readonly NotificationEntry[] {
    return this.#entries().filter((n) => !this.#gone.has(n.id));
  }

  /** Not news: replayed by the bridge, or held by the session before this element showed it. */
  #isEarlier(entry: NotificationEntry): boolean {
    return entry.earlier === true || entry.id <= this.#baselineId;
  }

  /** The active notifications shown as toasts. */
  get #toasts(): NotificationEntry[] {
    return this.active.filter((entry) => !this.#isEarlier(entry));
  }

  #entries(): readonly NotificationEntry[] {
    return this.#store.value ?? [];
  }

  get #limit(): number {
    const max = Math.floor(Number(this.max));
    return Number.isNaN(max) ? 5 : Math.max(1, max);
  }

  /**
   * How long info and warnings stay, in ms, or 0 when they stay until dismissed (a duration of 0, below 0, or
   * Infinity). An unreadable duration (NaN, from `duration="soon"`) means the default.
   */
  get #timeout(): number {
    const duration = Number(this.duration);
    if (Number.isNaN(duration)) return 5000;
    return duration > 0 && duration < Infinity ? duration : 0;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#disarm();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.#arm();
  }

  protected override update(changed: PropertyValues<this>): void {
    // Here rather than in willUpdate: the store controller picks up a newly assigned session after willUpdate.
    const source = this.#store.store;
    if (source !== this.#source) {
      // A new source: its ids are a different sequence, and what a session already holds is not news.
      this.#source = source;
      this.#gone.clear();
      this.#deadlines.clear();
      this.#lastSeenId = source === this.#own ? 0 : Math.max(0, ...this.#entries().map((n) => n.id));
      this.#baselineId = this.#lastSeenId;
    }
    this.#takeNew();
    this.#removalsFirst.run(
      () => this.#toasts.slice(-this.#limit),
      () => super.update(changed),
    );
  }

  protected override updated(): void {
    // With no toast left, the stack is gone and no pointerleave or focusout will come: nothing holds the pause.
    if (this.active.length === 0) {
      this.#holds.clear();
      this.#setPaused();
    }
    this.#arm();
  }

  /**
   * Gives each showing info or warning a deadline (from when it is first seen, or when timing is turned on; turning
   * it off forgets them all, so everything stays), prunes state of entries that left the buffer, and queues
   * announcements of new entries.
   */
  #takeNew(): void {
    const entries = this.#entries();
    const inBuffer = new Set<number>();
    let newestPolite: NotificationEntry | undefined;
    let newestError: NotificationEntry | undefined;
    const timeout = this.#timeout;
    if (!timeout) this.#deadlines.clear();
    for (const entry of entries) {
      inBuffer.add(entry.id);
      const { id, type } = entry;
      // Dismissed in this tab before (then the page reloaded): it stays dismissed.
      if (entry.requestId !== undefined && this.#dismissed.has(entry.requestId)) this.#gone.add(id);
      const quiet = this.#isEarlier(entry);
      if (timeout && !quiet && type !== "error" && !this.#gone.has(id) && !this.#deadlines.has(id)) {
        this.#deadlines.set(id, this.#clock.now() + timeout);
      }
      // Sent before the page connected (the bridge's replay): shown, marked earlier, not announced as new.
      if (id <= this.#lastSeenId || quiet || this.#gone.has(id)) continue;
      if (type === "error") newestError = entry;
      else newestPolite = entry;
    }
    this.#lastSeenId = Math.max(this.#lastSeenId, ...inBuffer);
    for (const ids of [this.#gone, this.#deadlines]) for (const id of ids.keys()) if (!inBuffer.has(id)) ids.delete(id);
    if (newestPolite || newestError) {
      // Alternating an invisible trailing space makes a repeated identical message a change screen readers voice.
      const tail = ++this.#announcements % 2 ? "" : "\u00a0";
      if (newestPolite) this.#polite = this.#announce(newestPolite) + tail;
      if (newestError) this.#assertive = this.#announce(newestError) + tail;
    }
  }

  #announce(entry: NotificationEntry): string {
    const origin = this.#origin(entry);
    const message = stripAnsi(entry.message);
    const advice = mentionsLogin(message) ? ` ${localizeOwn(this, "loginAdvice")}` : "";
    const text = `${origin === undefined ? message : `${origin}: ${message}`}${advice}`;
    return entry.type === "info" ? text : `${localizeOwn(this, entry.type)}: ${text}`;
  }

  /**
   * Where an error the session reported itself came from: "prompt failed" for a command pi refused, the file name of
   * an extension that failed (or "Extension" when pi names none), "pi" for what the agent process reported on its
   * stderr. Undefined for pi's own `notify`.
   */
  #origin(entry: NotificationEntry): string | undefined {
    const origin = entry.origin;
    if (!origin) return undefined;
    if (origin.kind === "command") return localizeOwn(this, "commandFailed", { command: origin.command });
    if (origin.kind === "agent") return localizeOwn(this, "agentDiagnostic");
    return origin.extensionPath?.split(/[\\/]/).filter(Boolean).at(-1) ?? localizeOwn(this, "extension");
  }

  // --- timers -------------------------------------------------------------------------------------------------

  /** The time the shown notifications are on: the session's while one is in use, else `clock`. */
  get #clock(): Clock {
    return this.#store.session?.clock ?? this.clock;
  }

  #disarm(): void {
    this.#timer?.timer.clear();
  }

  /** One timer, for the earliest deadline (none while there is none, and while paused). */
  #arm(): void {
    if (this.#pausedAt !== undefined || !this.isConnected || !this.#timeout) {
      this.#disarm();
      return;
    }
    const clock = this.#clock;
    if (this.#timer?.clock !== clock) {
      this.#disarm();
      this.#timer = { clock, timer: new DeadlineTimer(clock, () => this.#expire()) };
    }
    // With no deadline left this is Infinity, which disarms the timer.
    this.#timer.timer.set(Math.min(...this.#deadlines.values()));
  }

  #expire(): void {
    const now = this.#clock.now();
    for (const [id, deadline] of this.#deadlines) if (deadline <= now) this.#dismiss(id, "timeout");
    this.#arm();
  }

  #setPaused(): void {
    const paused = this.#holds.size > 0;
    if (paused && this.#pausedAt === undefined) {
      this.#pausedAt = this.#clock.now();
      this.#disarm();
    } else if (!paused && this.#pausedAt !== undefined) {
      const pause = this.#clock.now() - this.#pausedAt;
      this.#pausedAt = undefined;
      for (const [id, deadline] of this.#deadlines) this.#deadlines.set(id, deadline + pause);
      this.#arm();
    }
  }

  // --- dismissal ----------------------------------------------------------------------------------------------

  #dismiss(id: number, source: NotificationDismissDetail["source"]): boolean {
    const entry = this.active.find((n) => n.id === id);
    if (!entry) return false;
    this.#gone.add(id);
    this.#deadlines.delete(id);
    if (entry.requestId !== undefined && source !== "timeout") rememberDismissed(this.#dismissed, entry.requestId);
    this.requestUpdate();
    emit(this, "pi-notification-dismiss", { id, type: entry.type, message: entry.message, source });
    return true;
  }

  /**
   * Dismissing the focused toast moves focus to the toast now in its place (in its own list), so the keyboard user
   * stays in the stack; with its list empty, to the other list's, or the earlier list's toggle.
   */
  async #dismissFromUser(id: number, source: "button" | "keyboard", index: number): Promise<void> {
    const entry = this.active.find((candidate) => candidate.id === id);
    if (!entry || !this.#dismiss(id, source)) return;
    const own = this.#isEarlier(entry) ? "earlier-toasts" : "toasts";
    await this.updateComplete;
    const buttons = (part: string) =>
      this.renderRoot.querySelectorAll<HTMLButtonElement>(`[part~="${part}"] [part~="dismiss"]`);
    const mine = buttons(own);
    const next =
      mine[Math.min(index, mine.length - 1)] ??
      buttons(own === "toasts" ? "earlier-toasts" : "toasts")[0] ??
      this.renderRoot.querySelector<HTMLElement>('[part~="earlier-summary"]');
    if (next) next.focus();
    else this.#hold("focus", false);
  }

  // --- rendering ----------------------------------------------------------------------------------------------

  protected override render() {
    const toasts = this.#toasts;
    const earlier = this.active.filter((entry) => this.#isEarlier(entry));
    // The newest `max` active toasts are the ones in the DOM.
    const shown = this.#removalsFirst.items(toasts.slice(-this.#limit));
    const more = Math.max(0, toasts.length - this.#limit);
    return html`<div class="visually-hidden" aria-live="polite" aria-atomic="true">${this.#polite}</div>
      <div class="visually-hidden" role="alert" aria-atomic="true">${this.#assertive}</div>
      ${
        toasts.length === 0 && earlier.length === 0
          ? nothing
          : html`<section
            part="base stack"
            aria-label=${localizeOwn(this, "notifications")}
            @pointerenter=${() => this.#hold("pointer", true)}
            @pointerleave=${() => this.#hold("pointer", false)}
            @focusin=${() => this.#hold("focus", true)}
            @focusout=${(e: FocusEvent) => this.#hold("focus", this.renderRoot.contains(e.relatedTarget as Node | null))}
          >
            ${
              earlier.length === 0
                ? nothing
                : html`<details part="earlier-list">
                  <summary part="earlier-summary">${localizeOwn(this, "earlierNotifications", { count: earlier.length })}</summary>
                  <ol part="earlier-toasts">
                    ${repeat(
                      earlier,
                      (entry) => entry.id,
                      (entry, index) => this.#renderToast(entry, index),
                    )}
                  </ol>
                </details>`
            }
            ${more > 0 ? html`<p part="more">${localizeOwn(this, "moreNotifications", { count: more })}</p>` : nothing}
            <ol part="toasts list">
              ${repeat(
                shown,
                (entry) => entry.id,
                (entry, index) => this.#renderToast(entry, index),
              )}
            </ol>
          </section>`
      }`;
  }

  /**
   * One toast. `repeat` keeps a toast's `<li>` while it shows, so focus stays with its toast; `index` is its place in
   * the list, where focus goes when it is dismissed.
   */
  #renderToast(entry: NotificationEntry, index: number) {
    const label = entry.type === "info" ? nothing : html`<span part="label">${localizeOwn(this, entry.type)}:</span> `;
    const earlier = entry.earlier ? html`<span part="earlier">${localizeOwn(this, "earlier")}</span> ` : nothing;
    const originText = this.#origin(entry);
    // The extension's full path (and the event it failed in) on hover; the visible name is its file name.
    const originTitle =
      entry.origin?.kind === "extension"
        ? [entry.origin.extensionPath, entry.origin.event].filter(Boolean).join(" · ") || nothing
        : nothing;
    const origin =
      originText === undefined
        ? nothing
        : html`<span part="origin" title=${originTitle}><bdi>${originText}</bdi>:</span> `;
    // Escape anywhere in a toast dismisses it.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.isComposing) return;
      event.preventDefault();
      void this.#dismissFromUser(entry.id, "keyboard", index);
    };
    return html`<li part=${`toast toast-${entry.type}`} data-id=${entry.id} data-type=${entry.type} @keydown=${onKeyDown}>
      <svg part="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">${ICONS[entry.type]}</svg>
      <p part="body">${earlier}${label}${origin}<span part="message" dir="auto">${renderAnsi(entry.message)}</span>${loginAdvice(this, stripAnsi(entry.message))}</p>
      <button
        type="button"
        part="button dismiss-button dismiss"
        aria-label=${localizeOwn(this, "dismiss")}
        title=${localizeOwn(this, "dismiss")}
        @click=${() => this.#dismissFromUser(entry.id, "button", index)}
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="M4 4l8 8M12 4l-8 8" /></svg>
      </button>
    </li>`;
  }

  #hold(reason: "pointer" | "focus", on: boolean): void {
    if (on) this.#holds.add(reason);
    else this.#holds.delete(reason);
    this.#setPaused();
  }
}

/** Where a tab keeps the request ids of the notifications dismissed in it. */
const DISMISSED_KEY = "pi-elements:dismissed-notifications";
/** How many it keeps (the newest): more than a session's buffer of notifications holds. */
const DISMISSED_MAX = 200;

/** The ids dismissed in this tab; none where storage is unavailable (a sandboxed frame) or holds something else. */
function readDismissed(): Set<string> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.filter((id) => typeof id === "string").slice(-DISMISSED_MAX) : []);
  } catch {
    return new Set();
  }
}

/** Adds `id` to `dismissed` and to the tab's storage (kept to the newest DISMISSED_MAX). */
function rememberDismissed(dismissed: Set<string>, id: string): void {
  dismissed.delete(id);
  dismissed.add(id);
  for (const old of dismissed) {
    if (dismissed.size <= DISMISSED_MAX) break;
    dismissed.delete(old);
  }
  try {
    // Other elements of the tab may have added theirs since this one read it: merged, newest last.
    const stored = readDismissed();
    stored.delete(id);
    stored.add(id);
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...stored].slice(-DISMISSED_MAX)));
  } catch {
    // No storage here: the dismissal holds until the page reloads.
  }
}
