/**
 * The transcript's announcements (no lifecycle of its own, so not a controller): one polite announcement per finished
 * assistant message, never per token: its first words (as plain text, the Markdown's syntax gone), or the tools it called, or that it failed or was stopped. The
 * host tells it of each new snapshot (`observe`) and renders `render()` inside a `role="status"` region; each
 * announcement is a new node, so the same text twice is heard twice.
 */
import type { AssistantMessage, ConversationEntry, ConversationSnapshot } from "@pi-elements/core/conversation";
import { html, type TemplateResult } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { markdownWords } from "../markdown/plain-text.js";
import { shorten, textOf } from "./entries.js";
import type { TranscriptStringKey } from "./strings.js";

/** How much of a finished message's text is announced. */
const ANNOUNCE_CHARS = 200;

export class Announcer {
  readonly #t: (key: TranscriptStringKey, values?: Record<string, string | number>) => string;
  #text = "";
  #count = 0;

  /** `t`: the host's localized strings. */
  constructor(t: (key: TranscriptStringKey, values?: Record<string, string | number>) => string) {
    this.#t = t;
  }

  /** How many announcements were made, and the last one. */
  get count(): number {
    return this.#count;
  }
  get text(): string {
    return this.#text;
  }

  /** `next` follows `prev` (of the same store) with `added` entries: a streamed message that ended is announced. */
  observe(prev: ConversationSnapshot, next: ConversationSnapshot, added: readonly ConversationEntry[]): void {
    if (!prev.streaming || prev.streaming.key === next.streaming?.key) return;
    let finished: AssistantMessage | undefined;
    for (const entry of added) {
      if (entry.kind === "message" && entry.message.role === "assistant") finished = entry.message;
    }
    if (finished) this.#announce(finished);
  }

  render(): TemplateResult {
    return html`${repeat(
      this.#count > 0 ? [this.#count] : [],
      (n) => n,
      () => html`<p>${this.#text}</p>`,
    )}`;
  }

  #announce(message: AssistantMessage): void {
    let text: string;
    if (message.stopReason === "aborted") text = this.#t("announceAborted");
    else if (message.stopReason === "error") text = this.#t("announceFailed", { error: message.errorMessage ?? "" });
    else {
      // The words as shown, not the Markdown written: a screen reader would read out `**`, fences and `|---|`.
      const said = markdownWords(textOf(message.content));
      const tools = message.content.filter((b) => b.type === "toolCall").map((b) => (b as { name: string }).name);
      if (said) text = this.#t("announceMessage", { text: shorten(said, ANNOUNCE_CHARS) });
      else if (tools.length > 0) text = this.#t("announceTools", { tools: tools.join(", ") });
      else return;
    }
    this.#text = text;
    this.#count++;
  }
}
