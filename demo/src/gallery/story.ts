/**
 * What a story is. A story renders elements bound to a real PiSession whose other end is a `StoryAgent`: the
 * story's `play` sends the agent's extension-UI requests, and every answer the elements give arrives at the agent
 * as the exact JSON a real pi would receive (the gallery's event log shows it). Knobs are the story's arguments;
 * changing one restarts the story with the new values. Stories are plain modules: the browser tests import them as
 * fixtures too.
 */
import type { PiSession } from "@pi-elements/core";
import type { TemplateResult } from "lit";
import type { StoryAgent } from "./story-agent.js";

export type Knob =
  /** `ansi`: the text holds ANSI escapes; the knob shows ESC as `\e` and reads `\e`, `\x1b` or `\u001b` as ESC. */
  | { type: "text"; value: string; multiline?: boolean; ansi?: boolean }
  | { type: "number"; value: number; min?: number; max?: number; step?: number }
  | { type: "boolean"; value: boolean }
  | { type: "choice"; value: string; options: readonly string[] };

export type Knobs = Record<string, Knob>;
/** A knob's value type by its kind (literal defaults widen to string / number / boolean). */
type KnobValue<T extends Knob> = T extends { type: "number" }
  ? number
  : T extends { type: "boolean" }
    ? boolean
    : string;
export type Args<K extends Knobs> = { [P in keyof K]: KnobValue<K[P]> };

export interface StoryContext {
  session: PiSession;
  agent: StoryAgent;
}

export interface Story<K extends Knobs = Knobs> {
  name: string;
  /** One sentence on what the story shows. */
  description?: string;
  knobs: K;
  render(context: StoryContext, args: Args<K>): TemplateResult;
  /** What the agent sends once the elements are in the page. */
  /** Sends the story's requests; a story that spaces them out in time returns a promise for when it is done. */
  play?(agent: StoryAgent, args: Args<K>): unknown;
}

export interface StoryModule {
  /** URL segment, e.g. "select". */
  id: string;
  /** The element, e.g. "pi-select". */
  title: string;
  description: string;
  // biome-ignore lint/suspicious/noExplicitAny: a module lists stories with different knob types
  stories: Story<any>[];
}

/** Lets TypeScript infer a story's knob types from its `knobs`. */
export function story<const K extends Knobs>(definition: Story<K>): Story<K> {
  return definition;
}

export function defaultArgs<K extends Knobs>(knobs: K): Args<K> {
  return Object.fromEntries(Object.entries(knobs).map(([key, knob]) => [key, knob.value])) as Args<K>;
}

/** A text with ANSI escapes as a person can read and edit it: each ESC (U+001B) shown as `\e`. */
export function showEscapes(text: string): string {
  return text.replaceAll("\u001b", "\\e");
}

/** The inverse of `showEscapes`, and the other spellings shells use: `\e`, `\x1b`, `\u001b` (any case) are ESC. */
export function readEscapes(text: string): string {
  return text.replace(/\\(?:e|x1b|u001b)/gi, "\u001b");
}
