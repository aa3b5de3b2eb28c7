/**
 * Type-ahead for lists (APG listbox): printable keys typed within one second of each other form a search string;
 * the next item whose label starts with it becomes current. Typing the same character again cycles through the
 * items that start with it. Matching is by whole code points, case-insensitive, after NFKC normalization, so
 * non-Latin labels (日本語, Ελληνικά, русский) work the same way as Latin ones.
 */

import { type Clock, realClock } from "@pi-elements/core";
import type { ReactiveController, ReactiveControllerHost } from "lit";

export const TYPEAHEAD_MS = 1000;

export function normalizeForMatch(text: string): string {
  return text.normalize("NFKC").toLocaleLowerCase();
}

/** Whether a keydown is a printable character to search by (not a shortcut, not a named key). */
export function isPrintableKey(event: KeyboardEvent): boolean {
  return !event.ctrlKey && !event.metaKey && !event.altKey && [...event.key].length === 1;
}

export class TypeaheadController implements ReactiveController {
  #buffer = "";
  #lastAt = -Infinity;
  clock: Clock = realClock;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** True while a search string is being typed (the last key was less than a second ago). */
  get active(): boolean {
    return this.#buffer !== "" && this.clock.now() - this.#lastAt < TYPEAHEAD_MS;
  }

  /**
   * Adds `char` to the search and returns the index of the matching label, searching `labels` from `current`
   * (from the one after it when cycling on a repeated character); -1 when nothing matches.
   */
  type(char: string, labels: readonly string[], current: number): number {
    if (!this.active) this.#buffer = "";
    this.#buffer += normalizeForMatch(char);
    this.#lastAt = this.clock.now();
    const chars = [...this.#buffer];
    const cycling = chars.every((c) => c === chars[0]);
    const search = cycling ? (chars[0] ?? "") : this.#buffer;
    const start = cycling ? current + 1 : Math.max(current, 0);
    for (let step = 0; step < labels.length; step++) {
      const index = (start + step) % labels.length;
      if (normalizeForMatch(labels[index] ?? "").startsWith(search)) return index;
    }
    return -1;
  }

  reset(): void {
    this.#buffer = "";
  }

  hostConnected(): void {}
}
