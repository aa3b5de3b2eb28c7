/**
 * pi's edit diff (`details.diff`), read exactly as pi writes it (pi-coding-agent `core/tools/edit-diff.js`
 * `generateDiffString`): one line per row, a prefix (`+` added, `-` removed, ` ` context), the line number padded to
 * the widest one, a space, the text; a skipped stretch of context is ` <padding> ...`. As in pi's own renderer
 * (`modes/interactive/components/diff.js`), a single removed line followed by a single added line is a modified line,
 * whose changed words are marked. pi marks them with jsdiff's `diffWords`, whose unchanged parts carry the new line's
 * whitespace, so pi's removed line can show a space the file never had ("name ;"); `diffWordsWithSpace` keeps
 * whitespace as tokens of their own, so both lines read exactly as they are, with the same words marked.
 *
 * jsdiff is loaded only when a diff with a modified line is first shown: the rows show at once without the word marks,
 * then again with them.
 *
 * Word marks are bounded: jsdiff's cost grows with the lines' lengths times how much differs, and with the square of
 * the latter (two unrelated lines of 20 KB and 50 KB took 5.7 s and 18.5 s). A pair whose lines hold more than
 * `wordDiffChars` (`ToolCardLimits`, the card's `limits`) is not diffed; the others with jsdiff's own bounds,
 * `maxEditLength` (`wordDiffEdit` words and spaces: past it the lines differ too much for marks to help) and `timeout`
 * (`wordDiffMs`); one parse spends at most `WORD_DIFF_SLICE_MS` on them (the card's parse of a long diff none: its
 * renders draw rows, see diff-rows.ts), and the pairs it has no time for are diffed in later tasks (the card renders
 * again then, as when jsdiff loads). A pair not diffed shows as a removed and an added line, unmarked.
 * jsdiff's timeout is wall-clock time, which a paused page (a busy machine, a long garbage collection) can use up on
 * a pair of two words: a pair it gave up on by the clock is tried again in a later task, `WORD_DIFF_TRIES` times in all,
 * before it is shown unmarked for good.
 * Marks are kept by the pair's texts (the last `WORD_DIFF_KEPT` pairs), so a card that renders again does not diff
 * again.
 */

import { afterNextFrame } from "../../internal/after-frame.js";
import { TOOL_CARD_LIMITS, type ToolCardLimits } from "./registry.js";

export type DiffRowKind = "added" | "removed" | "context" | "other";

export interface DiffRow {
  readonly kind: DiffRowKind;
  /** The line number as pi padded it ("" for a skipped stretch or a line pi's format does not describe). */
  readonly lineNumber: string;
  readonly text: string;
  /** For a modified line: its text cut into unchanged and changed pieces (once jsdiff has loaded). */
  readonly pieces?: readonly DiffPiece[];
}

export interface DiffPiece {
  readonly text: string;
  readonly changed: boolean;
}

/** pi's `parseDiffLine`: prefix, line number (with its padding), one space, the content. */
const LINE = /^([+\-\s])(\s*\d*)\s(.*)$/;

/** How long one parse spends on word marks; the pairs it has no time for follow in later tasks. */
export const WORD_DIFF_SLICE_MS = 12;
/** The time a pair needs ahead in a slice to start (less than a whole slice, so each slice starts one). */
const PAIR_START_MS = 8;
/** How many times a pair jsdiff gave up on by its timeout is tried (each in a task of its own) before it stays unmarked. */
export const WORD_DIFF_TRIES = 3;
/** How many pairs' marks are kept. */
const WORD_DIFF_KEPT = 2_000;

type WordDiff = (
  oldText: string,
  newText: string,
  options: { maxEditLength: number; timeout: number },
) => { value: string; added?: boolean; removed?: boolean }[] | undefined;
let diffWords: WordDiff | undefined;

type Marks = readonly [DiffPiece[], DiffPiece[]];
/** The marks of each pair diffed, by its two texts (`null`: not diffed, past a bound); oldest first. */
const marksKept = new Map<string, Marks | null>();
/** The pairs waiting for a later task (with their card's limits), and the cards to render again once they are diffed. */
const waitingPairs = new Map<string, [string, string, ToolCardLimits]>();
const waitingCards = new Set<() => void>();
/** How many times each pair waiting after a timeout has been tried. */
const timedOut = new Map<string, number>();
let sliceScheduled = false;

/** The marks of a pair: diffed now if `deadline` allows, else undefined (queued for a later task). */
function marksOf(removed: string, added: string, deadline: number, limits: ToolCardLimits): Marks | null | undefined {
  if (removed.length + added.length > limits.wordDiffChars) return null;
  // Marks depend on jsdiff's bounds too: a card with other limits keeps its own.
  const key = `${limits.wordDiffEdit}/${limits.wordDiffMs}/${removed.length}:${removed}${added}`;
  const kept = marksKept.get(key);
  if (kept !== undefined) return kept;
  if (!diffWords) return undefined;
  // A pair starts only with its whole time ahead (a slice starts with more than that), so jsdiff giving up always
  // means the pair is past a bound, never that the slice ran out; a time longer than PAIR_START_MS (a page's
  // choice) may run past the slice.
  if (deadline - performance.now() < Math.min(limits.wordDiffMs, PAIR_START_MS)) {
    waitingPairs.set(key, [removed, added, limits]);
    return undefined;
  }
  // jsdiff reads the time from Date.now(), so the same clock tells its two ways of giving up apart.
  const started = Date.now();
  const parts = diffWords(removed, added, { maxEditLength: limits.wordDiffEdit, timeout: limits.wordDiffMs });
  const tries = (timedOut.get(key) ?? 0) + 1;
  timedOut.delete(key);
  if (parts) return keep(key, markWords(parts));
  // Past maxEditLength the pair differs too much, for good; a timeout may have been the page's pause, not the pair.
  if (Date.now() - started >= limits.wordDiffMs && tries < WORD_DIFF_TRIES) {
    timedOut.set(key, tries);
    waitingPairs.set(key, [removed, added, limits]);
    return undefined;
  }
  return keep(key, null);
}

function keep(key: string, marks: Marks | null): Marks | null {
  marksKept.set(key, marks);
  if (marksKept.size > WORD_DIFF_KEPT) marksKept.delete(marksKept.keys().next().value as string);
  return marks;
}

/** Diffs waiting pairs in a task after the next frame, a slice at a time, then renders the waiting cards again. */
function scheduleSlice(): void {
  if (sliceScheduled) return;
  sliceScheduled = true;
  afterNextFrame(() => {
    sliceScheduled = false;
    const deadline = performance.now() + WORD_DIFF_SLICE_MS;
    // The pairs waiting as the slice starts: one put back (out of time, or timed out) waits for the next slice.
    for (const [key, [removed, added, limits]] of [...waitingPairs]) {
      if (performance.now() >= deadline) break;
      waitingPairs.delete(key);
      marksOf(removed, added, deadline, limits);
    }
    if (waitingPairs.size > 0) {
      scheduleSlice();
      return;
    }
    const cards = [...waitingCards];
    waitingCards.clear();
    for (const card of cards) card();
  });
}
/** "loading" once asked for, "failed" if the module could not be had (the rows then stay unmarked). */
let state: "idle" | "loading" | "failed" = "idle";
const waiting = new Set<() => void>();

/** Loads jsdiff's word diff once; `onLoad` runs when it is there. */
function loadWordDiff(onLoad: () => void): void {
  if (state === "failed") return;
  waiting.add(onLoad);
  if (state === "loading") return;
  state = "loading";
  import("diff/lib/diff/word.js").then(
    (module) => {
      diffWords = module.diffWordsWithSpace as WordDiff;
      for (const wake of waiting) wake();
      waiting.clear();
    },
    () => {
      state = "failed";
      waiting.clear();
    },
  );
}

/**
 * The rows of `diff`. `onMarksLoaded` runs once the word marks can be made, if they could not yet: render again then.
 * `maxRows` bounds the work for a huge diff (the rows past it are not parsed). `sliceMs` is the time this parse may
 * spend on marks not made yet (0: all of them in later tasks). `limits` bound each pair's diff.
 */
export function parseEditDiff(
  diff: string,
  onMarksLoaded: () => void,
  maxRows = Number.POSITIVE_INFINITY,
  sliceMs = WORD_DIFF_SLICE_MS,
  limits: ToolCardLimits = TOOL_CARD_LIMITS,
): DiffRow[] {
  const lines = diff.split("\n", Number.isFinite(maxRows) ? maxRows : undefined);
  const rows: DiffRow[] = lines.map((line) => {
    const match = LINE.exec(line);
    if (!match) return { kind: "other", lineNumber: "", text: line };
    const [, prefix, lineNumber = "", text = ""] = match;
    const kind = prefix === "+" ? "added" : prefix === "-" ? "removed" : "context";
    return { kind, lineNumber: lineNumber.trim(), text };
  });
  let loading = false;
  let waiting = false;
  const deadline = performance.now() + sliceMs;
  for (let i = 0; i + 1 < rows.length; i++) {
    const [before, removed, added, after] = [rows[i - 1], rows[i], rows[i + 1], rows[i + 2]];
    if (removed?.kind !== "removed" || added?.kind !== "added") continue;
    // Exactly one removed line then exactly one added line, as pi's renderer requires for word marks.
    if (before?.kind === "removed" || after?.kind === "added") continue;
    if (!diffWords) {
      loading = true;
      continue;
    }
    const marks = marksOf(removed.text, added.text, deadline, limits);
    if (marks === undefined) waiting = true;
    if (marks) {
      rows[i] = { ...removed, pieces: marks[0] };
      rows[i + 1] = { ...added, pieces: marks[1] };
    }
    i++;
  }
  if (loading) loadWordDiff(onMarksLoaded);
  if (waiting) {
    waitingCards.add(onMarksLoaded);
    scheduleSlice();
  }
  return rows;
}

/**
 * Splits jsdiff's parts into the two lines' pieces. As pi does, the leading whitespace of each line's first change
 * is not marked (an indentation change would otherwise light up the whole margin). Changed words with only white
 * space between them are one mark, white space and all, as pi's `diffWords` marks a run of changed words:
 * `diffWordsWithSpace` keeps each space as a token of its own, and two unrelated lines of 300 words then showed 300
 * marks a line with an unmarked space between each two, where pi shows a few runs (and the page drew 300 elements).
 */
function markWords(parts: NonNullable<ReturnType<WordDiff>>): [DiffPiece[], DiffPiece[]] {
  const oldPieces: DiffPiece[] = [];
  const newPieces: DiffPiece[] = [];
  let firstRemoved = true;
  let firstAdded = true;
  const push = (pieces: DiffPiece[], text: string, changed: boolean) => {
    if (text === "") return;
    const [before, last] = [pieces[pieces.length - 2], pieces[pieces.length - 1]];
    if (changed && last?.changed) pieces[pieces.length - 1] = { text: last.text + text, changed };
    else if (changed && before?.changed && last && /^\s+$/.test(last.text))
      pieces.splice(-2, 2, { text: before.text + last.text + text, changed });
    else pieces.push({ text, changed });
  };
  for (const part of parts) {
    if (part.removed || part.added) {
      const pieces = part.removed ? oldPieces : newPieces;
      let value = part.value;
      if (part.removed ? firstRemoved : firstAdded) {
        const lead = /^\s*/.exec(value)?.[0] ?? "";
        push(pieces, lead, false);
        value = value.slice(lead.length);
        if (part.removed) firstRemoved = false;
        else firstAdded = false;
      }
      push(pieces, value, true);
    } else {
      push(oldPieces, part.value, false);
      push(newPieces, part.value, false);
    }
  }
  return [oldPieces, newPieces];
}

/**
 * The edits of an `edit` call's arguments as rows without line numbers (the old text removed, the new text added):
 * what the card shows before pi's diff exists (while the call streams or runs). Both argument shapes pi accepts:
 * `edits: [{oldText, newText}]` and a single `oldText`/`newText`.
 */
export function editsAsRows(args: unknown, maxRows: number): DiffRow[] {
  if (typeof args !== "object" || args === null) return [];
  const record = args as Record<string, unknown>;
  const edits = Array.isArray(record.edits) ? record.edits : [record];
  const rows: DiffRow[] = [];
  for (const edit of edits) {
    if (typeof edit !== "object" || edit === null) continue;
    const { oldText, newText } = edit as Record<string, unknown>;
    for (const [kind, text] of [
      ["removed", oldText],
      ["added", newText],
    ] as const) {
      if (typeof text !== "string") continue;
      for (const line of text.split("\n", maxRows - rows.length)) rows.push({ kind, lineNumber: "", text: line });
      if (rows.length >= maxRows) return rows;
    }
  }
  return rows;
}
