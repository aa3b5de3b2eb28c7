/**
 * The highlighter's worker: lowlight runs here, off the page's main thread, so that a pathological input (100 KB of
 * dashes as `ini` took over a minute) never blocks the page; highlighter.ts stops this worker when one takes too long.
 * Once its modules have loaded it says `{ ready: true }`; each message `{ id, code, language }` is answered with the
 * hast tree cut into chunks of lines as pi-code-block shows them (chunks.ts), one message `{ id, chunk }` a chunk,
 * then `{ id, end: true, known }` (`known` false, after no chunk, for a language the highlighter does not know or an
 * error). A message a chunk, because the page clones each message in one task: a whole 100 KB tree took ~90 ms.
 */
import { chunkTree } from "./chunks.js";
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
  let chunks: ReturnType<typeof chunkTree> | undefined;
  try {
    const tree = highlight(String(data.code), String(data.language));
    chunks = tree && chunkTree(tree);
  } catch {
    chunks = undefined;
  }
  for (const chunk of chunks ?? []) scope.postMessage({ id: data.id, chunk });
  scope.postMessage({ id: data.id, end: true, known: chunks !== undefined });
};

// Loaded: the page's bound on a highlight counts from here, not from a start that may be slow on a busy machine.
scope.postMessage({ ready: true });
