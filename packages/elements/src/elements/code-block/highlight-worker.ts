/**
 * The highlighter's worker: lowlight runs here, off the page's main thread, so that a pathological input (100 KB of
 * dashes as `ini` took over a minute) never blocks the page; highlighter.ts stops this worker when one takes too long.
 * Once its modules have loaded it says `{ ready: true }`; each message `{ id, code, language }` is answered
 * `{ id, tree }` (hast, cloned to the page; undefined for a language the highlighter does not know or an error).
 */
import { highlight } from "./highlight.js";

interface Request {
  id: number;
  code: string;
  language: string;
}

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Request>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = ({ data }) => {
  let tree: ReturnType<typeof highlight>;
  try {
    tree = highlight(String(data.code), String(data.language));
  } catch {
    tree = undefined;
  }
  scope.postMessage({ id: data.id, tree });
};

// Loaded: the page's bound on a highlight counts from here, not from a start that may be slow on a busy machine.
scope.postMessage({ ready: true });
