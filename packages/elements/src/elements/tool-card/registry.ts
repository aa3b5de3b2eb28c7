/**
 * Which renderer draws a tool's card body: a page's own (`registerToolRenderer`, for the tools its extensions
 * register, or to replace a built-in one), else the built-in one for pi's tools, else the generic one (arguments and
 * result). The card keeps its frame either way: the header (tool, subject, status, time) and the group's name.
 */
import type { ToolExecution } from "@pi-elements/core/conversation";
import type { TemplateResult } from "lit";
import type { ToolCardStringKey } from "./strings.js";

/**
 * A tool call as the card takes it: the assistant message's `toolCall` block (`{type: "toolCall", id, name,
 * arguments}`), or the core's `StreamingToolCall` while it streams (`complete: false`, arguments partly parsed).
 */
export interface ToolCallBlock {
  readonly type?: string;
  readonly id?: string;
  readonly name?: string;
  readonly arguments?: unknown;
  /** False while the call's arguments still stream; absent (complete) on a committed message. */
  readonly complete?: boolean;
}

/**
 * Where the card is: `streaming` while the call's arguments still arrive, `pending` once complete but not yet run,
 * then the execution's own `running` / `done` / `error`.
 */
export type ToolCardStatus = "streaming" | "pending" | "running" | "done" | "error";

/** Options of `ToolRenderContext.output`. */
export interface OutputOptions {
  /** Lines shown while collapsed. */
  readonly lines: number;
  /** `"end"` shows the last lines ("N earlier lines", as bash), `"start"` the first ("N more lines"). */
  readonly from: "start" | "end";
  /** Render ANSI styling (default true); false shows the text as it is (a file's content). */
  readonly ansi?: boolean;
  /** Shown instead of an empty output (nothing by default). */
  readonly empty?: string;
  /** Say "N more lines, M total" rather than "N more lines" (pi's write card). */
  readonly showTotal?: boolean;
  /** Highlight as this highlight.js language through `<pi-code-block>` when the page has it. */
  readonly language?: string;
}

/** What pi-tool-card does with an edit's diff (its `limits`); each can be `Infinity`. See edit-diff.ts. */
export interface ToolCardLimits {
  /** A removed line and the added line after it holding more characters than this are shown unmarked, not diffed. */
  readonly wordDiffChars: number;
  /** How many words and spaces may differ in one pair (jsdiff's `maxEditLength`); past it, unmarked. */
  readonly wordDiffEdit: number;
  /** How long (ms) jsdiff may take for one pair (its `timeout`; tried three times) before it is shown unmarked. */
  readonly wordDiffMs: number;
}

/** The defaults: 256 changed words and spaces took some 7 ms in Node here; 8 ms a pair keeps a frame's share. */
export const TOOL_CARD_LIMITS: ToolCardLimits = Object.freeze({
  wordDiffChars: 20_000,
  wordDiffEdit: 256,
  wordDiffMs: 8,
});

/** What a renderer gets besides the call and the execution. */
export interface ToolRenderContext {
  /** The card element (for `lang`, `dir`, events). */
  readonly element: HTMLElement;
  readonly status: ToolCardStatus;
  /** Whether the card is expanded (its toggle, or the transcript's "expand all"). */
  readonly expanded: boolean;
  /** The arguments: the call's, else the execution's `args`; `{}` when neither is an object. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The result so far: `execution.result` once done, else the latest `partialResult` (replaced, never appended). */
  readonly result: unknown;
  /** The result's text (text blocks joined; images as a placeholder). */
  readonly text: string;
  /** A string of the card's string set, in the element's language. */
  localize(key: ToolCardStringKey, values?: Record<string, string | number>): string;
  /**
   * A long text shown as pi shows tool output: a few lines while collapsed, with a button naming how many are
   * hidden that expands the card; all of it (up to 2,000 lines and 100,000 characters) while expanded.
   */
  output(text: string, options: OutputOptions): TemplateResult;
  /** Renders the card again (for a renderer that loads something lazily). */
  requestUpdate(): void;
  /** The card's limits (its `limits` over `TOOL_CARD_LIMITS`). */
  readonly limits: ToolCardLimits;
}

/** Draws the body of one tool's card. */
export type ToolRenderer = (
  call: ToolCallBlock,
  execution: ToolExecution | undefined,
  context: ToolRenderContext,
) => TemplateResult;

export interface ToolRendererOptions {
  /**
   * What the call acts on, for the header and the card's accessible name ("bash: ls -la"): the command, the path…
   * Without it, the first string argument.
   */
  readonly subject?: (args: Readonly<Record<string, unknown>>) => string;
}

export interface ToolRendererEntry extends ToolRendererOptions {
  readonly render: ToolRenderer;
}

/**
 * The page's renderers, one registry per page shared by every copy of the library (a page that loads the bundle and
 * registers through the package's module, or two bundles), as the session context is: kept under a global symbol.
 */
type Registry = { renderers: Map<string, ToolRendererEntry>; listeners: Set<() => void> };
const REGISTRY = Symbol.for("pi-elements/tool-renderers");
/** The page's registry, made on first use (importing this module leaves the page alone). */
function registry(): Registry {
  const shared = globalThis as { [REGISTRY]?: Registry };
  shared[REGISTRY] ??= { renderers: new Map(), listeners: new Set() };
  return shared[REGISTRY];
}

/**
 * Gives the cards of tool `name` the page's own renderer, in place of the built-in one (or of the generic card).
 * Cards already on the page render again with it. Returns a function that removes it again.
 */
export function registerToolRenderer(
  name: string,
  render: ToolRenderer,
  options: ToolRendererOptions = {},
): () => void {
  const entry: ToolRendererEntry = { ...options, render };
  const { renderers, listeners } = registry();
  renderers.set(name, entry);
  for (const listener of listeners) listener();
  return () => {
    if (renderers.get(name) !== entry) return;
    renderers.delete(name);
    for (const listener of listeners) listener();
  };
}

/** The page's renderer for `name`, if it registered one. */
export function pageRenderer(name: string): ToolRendererEntry | undefined {
  return registry().renderers.get(name);
}

/** Calls `listener` whenever the page's renderers change; returns the unsubscribe. */
export function onRenderersChanged(listener: () => void): () => void {
  const { listeners } = registry();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
