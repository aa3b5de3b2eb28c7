/**
 * What the transcript tests share: the recorded conversations (test/fixtures/conversation/<version>/, served by the
 * test runner from the repository), fed into a ConversationState as the store's refresh rule would, and stand-ins
 * for the elements the transcript renders by tag (`pi-markdown`, `pi-code-block`, `pi-tool-card`), which other
 * parts provide: each shows its input as text, the tool card as a named group, so the tests can read what shows.
 */
import type { AgentEventBase } from "@pi-elements/core";
import { ConversationState } from "@pi-elements/core/conversation";
import { html, LitElement } from "lit";
import { assistant } from "../../../core/test/conversation-wire.js";

export const VERSIONS = ["0.73.1", "1.6.0"] as const;
export type Version = (typeof VERSIONS)[number];

type Record_ = { type: string; [key: string]: unknown };

const cache = new Map<string, Record_[]>();

export async function loadRecords(version: Version, scenario: string): Promise<Record_[]> {
  const path = `/test/fixtures/conversation/${version}/${scenario}.jsonl`;
  let records = cache.get(path);
  if (!records) {
    const response = await fetch(path);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    const text = await response.text();
    records = text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record_);
    cache.set(path, records);
  }
  return records;
}

/**
 * Feeds recorded records to `state` one by one, calling `step` after each event applied (await it to let the
 * element render). A `get_messages` answer is given to the store only where its refresh rule would have asked for
 * one (after a `bash` answer or a `compaction_end` with a result), as the core's recordings test does.
 */
export async function replay(
  state: ConversationState,
  records: readonly Record_[],
  step?: (record: Record_) => unknown,
): Promise<void> {
  let asked: number | undefined;
  for (const record of records) {
    if (record.type === "response") {
      const data = record.data as { messages?: unknown[] } | undefined;
      if (record.command === "bash" && record.success === true) asked ??= state.mark();
      if (record.command === "get_messages" && Array.isArray(data?.messages)) {
        if (asked !== undefined) state.setHistory(data.messages, asked);
        asked = undefined;
      }
      continue;
    }
    if (record.type === "extension_ui_request") continue;
    state.apply(record as AgentEventBase);
    if (record.type === "compaction_end" && typeof record.result === "object" && record.result !== null) {
      asked = state.mark();
    }
    if (step) await step(record);
  }
}

/** A store holding a whole recorded conversation (no renders on the way). */
export async function recorded(version: Version, scenario: string): Promise<ConversationState> {
  const state = new ConversationState();
  await replay(state, await loadRecords(version, scenario));
  return state;
}

class StubMarkdown extends LitElement {
  static override properties = { text: { attribute: false }, streaming: { type: Boolean, reflect: true } };
  declare text: string;
  declare streaming: boolean;
  protected override render() {
    return html`<div style="white-space: pre-wrap">${this.text}</div>`;
  }
}
class StubCodeBlock extends LitElement {
  static override properties = { code: { attribute: false }, language: {} };
  declare code: string;
  declare language: string;
  protected override render() {
    return html`<pre><code>${this.code}</code></pre>`;
  }
}
class StubToolCard extends LitElement {
  static override properties = {
    call: { attribute: false },
    execution: { attribute: false },
    expanded: { type: Boolean, reflect: true },
  };
  declare call: { name: string; id: string } | undefined;
  declare execution: { status: string } | undefined;
  declare expanded: boolean;
  protected override render() {
    return html`<div role="group" aria-label=${this.call?.name ?? ""}>
      <button
        type="button"
        style="color: inherit; background: transparent; border: 1px solid currentColor; font: inherit"
        aria-expanded=${this.expanded ? "true" : "false"}
      >${this.call?.name}</button>
      <span>${this.execution?.status ?? "pending"}</span>
    </div>`;
  }
}

/** Defines the stand-ins where the real elements are not loaded. */
export function defineStandIns(): void {
  if (!customElements.get("pi-markdown")) customElements.define("pi-markdown", StubMarkdown);
  if (!customElements.get("pi-code-block")) customElements.define("pi-code-block", StubCodeBlock);
  if (!customElements.get("pi-tool-card")) customElements.define("pi-tool-card", StubToolCard);
}

/**
 * A long session: `turns` turns of a question, an assistant message with text and a tool call, its tool result and
 * an answer in Markdown (4 messages a turn: 500 turns make the 2,000 messages of issue #21's long-session goal).
 */
export function longHistory(turns: number): unknown[] {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i}`;
    messages.push({ role: "user", content: `Question ${i}: what is in file-${i}.txt?`, timestamp: i });
    messages.push(
      assistant([
        { type: "text", text: `Reading **file-${i}.txt**.` },
        { type: "toolCall", id, name: "read", arguments: { path: `file-${i}.txt` } },
      ]),
    );
    messages.push({
      role: "toolResult",
      toolCallId: id,
      toolName: "read",
      content: [{ type: "text", text: `line one of file ${i}\nline two\nline three` }],
      isError: false,
      timestamp: i,
    });
    messages.push(assistant([{ type: "text", text: `File ${i} has three lines:\n\n- one\n- two\n- three` }]));
  }
  return messages;
}
