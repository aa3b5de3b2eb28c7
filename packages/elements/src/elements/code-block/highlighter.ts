/**
 * Highlighting off the main thread. lowlight (highlight.ts) runs in a module worker (highlight-worker.ts), started by
 * the first code block with a language and shared by every code block of the page: a page without code starts none.
 * The worker highlights one code at a time; one that takes longer than its time (`HIGHLIGHT_TIMEOUT_MS` unless the
 * code block's limits say otherwise; from when the worker
 * has loaded and the code is its turn) is stopped (the worker is ended, and a new one takes the next code) and its code
 * stays plain, as does all code when no worker can be
 * started (a Content-Security-Policy without `worker-src 'self'` or a `script-src` that allows the page's own files;
 * the file missing).
 */
import type { Root } from "./highlight.js";

export type { Root };

/** How long one highlight may take in the worker before it is stopped, unless the caller gives another time. */
export const HIGHLIGHT_TIMEOUT_MS = 2_000;
/** A bound on the worker's start (its modules loading), against a worker that never starts: then no highlighting. */
const START_TIMEOUT_MS = 60_000;

/**
 * What a highlight gave: the tree cut into chunks of lines (chunks.ts; undefined for a language the highlighter does
 * not know), or that it was stopped.
 */
export type Highlighted = { chunks: Root[] | undefined } | { timedOut: true };

interface Job {
  id: number;
  code: string;
  language: string;
  /** How long it may take (ms; `Infinity` for no bound). */
  timeoutMs: number;
  /** The chunks of its tree that have arrived (one message each). */
  chunks: Root[];
  resolve(result: Highlighted): void;
}

let worker: Worker | undefined;
/** Whether the worker has loaded (it said so), and the bound on its start. */
let ready = false;
let startTimer: ReturnType<typeof setTimeout> | undefined;
/** No worker can be had here: every code stays plain. */
let unavailable = false;
const queue: Job[] = [];
let current: { job: Job; timer: ReturnType<typeof setTimeout> | undefined } | undefined;
let nextId = 1;

/**
 * Highlights `code` in `language` in the worker, stopped after `timeoutMs` (`Infinity`: never); plain (`chunks`
 * undefined) where there is no worker.
 */
export function highlightOffThread(
  code: string,
  language: string,
  timeoutMs = HIGHLIGHT_TIMEOUT_MS,
): Promise<Highlighted> {
  if (unavailable) return Promise.resolve({ chunks: undefined });
  return new Promise((resolve) => {
    queue.push({ id: nextId++, code, language, timeoutMs, chunks: [], resolve });
    next();
  });
}

function start(): Worker | undefined {
  if (worker || unavailable) return worker;
  try {
    worker = new Worker(new URL("./highlight-worker.js", import.meta.url), { type: "module", name: "pi-highlight" });
  } catch {
    giveUp();
    return undefined;
  }
  ready = false;
  startTimer = setTimeout(giveUp, START_TIMEOUT_MS);
  worker.onmessage = ({
    data,
  }: MessageEvent<{ ready?: true; id?: number; chunk?: Root; end?: true; known?: boolean }>) => {
    if (data.ready) {
      clearTimeout(startTimer);
      ready = true;
      if (current) current.timer = bound(current.job);
      return;
    }
    if (!current || data.id !== current.job.id) return;
    const { job } = current;
    if (data.chunk) job.chunks.push(data.chunk);
    if (!data.end) return;
    clearTimeout(current.timer);
    current = undefined;
    job.resolve({ chunks: data.known ? job.chunks : undefined });
    next();
  };
  // The worker's file could not be loaded or run: no worker here.
  worker.onerror = (event) => {
    event.preventDefault();
    giveUp();
  };
  return worker;
}

/** The bound on `job`, once the worker has loaded: past it, the worker is stopped and the job's code stays plain. */
function bound(job: Job): ReturnType<typeof setTimeout> | undefined {
  // setTimeout takes at most 2^31 - 1 ms (longer fires at once): past that, no bound.
  if (!(job.timeoutMs <= 2_147_483_647)) return undefined;
  const running = worker;
  return setTimeout(() => {
    // Stopped: the only way to end a highlight that runs on is to end its worker.
    running?.terminate();
    if (worker === running) worker = undefined;
    current = undefined;
    job.resolve({ timedOut: true });
    next();
  }, job.timeoutMs);
}

function next(): void {
  if (current || queue.length === 0) return;
  const running = start();
  if (!running) return;
  const job = queue.shift()!;
  // Before the worker has loaded, the message waits in its queue and the bound starts when it says it has.
  current = { job, timer: ready ? bound(job) : undefined };
  running.postMessage({ id: job.id, code: job.code, language: job.language });
}

function giveUp(): void {
  unavailable = true;
  clearTimeout(startTimer);
  worker?.terminate();
  worker = undefined;
  if (current) clearTimeout(current.timer);
  const jobs = [...(current ? [current.job] : []), ...queue.splice(0)];
  current = undefined;
  for (const job of jobs) job.resolve({ chunks: undefined });
}
