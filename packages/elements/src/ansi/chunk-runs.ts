/**
 * Styled runs cut into chunks of whole lines, for a long text that is drawn as boxes laid out only near the view
 * (a tool's output of 2,000 lines). Cuts fall after every line whose number, counted in the whole output, is a
 * multiple of the chunk size: while a window onto a growing output slides, a chunk keeps its number and its text, so
 * it keeps its nodes. A run a cut falls in is split, its style and link on both sides: a colour goes on across a cut.
 */
import type { AnsiRun } from "./parse-ansi.js";

export interface RunChunk {
  /** The chunk's number in the whole output: `floor(line / lines)` of each of its lines. */
  readonly index: number;
  readonly runs: readonly AnsiRun[];
}

/**
 * `runs` (a text's, in order) cut after every line break that ends line `n` with `(n + 1) % lines === 0`, lines
 * counted from `firstLine` (the number of the text's first line in its output). A chunk ends with its line break; no
 * chunk is empty; joined, the chunks' texts are the runs' text.
 */
export function chunkRuns(runs: readonly AnsiRun[], lines: number, firstLine = 0): RunChunk[] {
  const size = Math.max(1, Math.floor(lines));
  let line = Math.max(0, Math.floor(firstLine));
  let current: AnsiRun[] = [];
  let index = Math.floor(line / size);
  const chunks: RunChunk[] = [];
  const close = () => {
    if (current.length > 0) chunks.push({ index, runs: current });
    current = [];
  };
  for (const run of runs) {
    let from = 0;
    for (let at = run.text.indexOf("\n"); at !== -1; at = run.text.indexOf("\n", at + 1)) {
      line++;
      if (line % size !== 0) continue;
      current.push(from === 0 && at === run.text.length - 1 ? run : { ...run, text: run.text.slice(from, at + 1) });
      from = at + 1;
      close();
      index = line / size;
    }
    if (from < run.text.length) current.push(from === 0 ? run : { ...run, text: run.text.slice(from) });
  }
  close();
  return chunks;
}
