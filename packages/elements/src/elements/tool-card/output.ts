/**
 * Tool results as text, and the part of a long text a card shows. Everything here is plain string work, bounded by
 * what is shown rather than by the size of the output: a 100,000-line result costs one pass to count its lines and
 * then only the lines on screen.
 */

/** Lines an expanded card shows at most (pi keeps 2,000 lines of a tool's output for the model). */
export const MAX_EXPANDED_LINES = 2000;
/**
 * Lines per chunk of a long output (past twice as many): each chunk is a box laid out and painted only near the view,
 * as pi-code-block's chunks are. WebKit laid out 2,000 lines in one box in 15-36 ms; in chunks, 1-3.
 */
export const OUTPUT_CHUNK_LINES = 100;
/** Characters a card shows at most in one window: a single 10 MB line must not become one 10 MB text node. */
export const MAX_WINDOW_CHARS = 100_000;

/** A tool result as pi sends it (`tool_execution_end.result`, `partialResult`, a `toolResult` message). */
export interface ToolResultLike {
  readonly content?: readonly unknown[];
  readonly details?: unknown;
  readonly structuredContent?: unknown;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A string argument, or undefined for anything else. */
export const stringArg = (args: unknown, ...names: string[]): string | undefined => {
  if (!isRecord(args)) return undefined;
  for (const name of names) if (typeof args[name] === "string") return args[name] as string;
  return undefined;
};

/**
 * The text of a result: its text blocks joined by newlines (as pi's TUI joins them), an image block that the card
 * cannot show (see `resultImages`) as a short placeholder made by `image(mimeType)`. Anything that is not a result
 * gives "".
 */
export function resultText(result: unknown, image: (type: string) => string = (type) => `[${type}]`): string {
  if (!isRecord(result) || !Array.isArray(result.content)) return typeof result === "string" ? result : "";
  const parts: string[] = [];
  for (const block of result.content) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "image" && imageOf(block) === undefined)
      parts.push(image(typeof block.mimeType === "string" ? block.mimeType : "image"));
  }
  return parts.join("\n");
}

/** The raster formats pi's read tool returns (jpg, png, gif, webp, bmp); SVG is not one (it is a document). */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp"]);
/** The most images one card shows. */
export const MAX_IMAGES = 4;

export interface ResultImage {
  readonly mimeType: string;
  /** A `data:` URL: the image is in the result, nothing is fetched. */
  readonly src: string;
}

function imageOf(block: Record<string, unknown>): ResultImage | undefined {
  const { mimeType, data } = block;
  if (typeof mimeType !== "string" || !IMAGE_TYPES.has(mimeType) || typeof data !== "string") return undefined;
  // Base64 only, so the URL is exactly an image of that type and nothing else.
  if (data === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return undefined;
  return { mimeType, src: `data:${mimeType};base64,${data}` };
}

/** The images of a result that a card shows inline (at most MAX_IMAGES). */
export function resultImages(result: unknown): ResultImage[] {
  if (!isRecord(result) || !Array.isArray(result.content)) return [];
  const images: ResultImage[] = [];
  for (const block of result.content) {
    const image = isRecord(block) && block.type === "image" ? imageOf(block) : undefined;
    if (image && images.length < MAX_IMAGES) images.push(image);
  }
  return images;
}

/** How many lines `text` has (a final newline ends the last line rather than starting an empty one). */
export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count - 1 : count;
}

/** One window onto a text: what is shown, and how much is left out on the hidden side. */
export interface LineWindow {
  /** The lines shown, joined by "\n". */
  readonly text: string;
  /** Lines of the text in all. */
  readonly total: number;
  /** Lines left out. */
  readonly hidden: number;
  /** Characters cut from the lines shown because the window was too long (MAX_WINDOW_CHARS). */
  readonly cutChars: number;
}

/**
 * The first (`from: "start"`) or last (`from: "end"`) `limit` lines of `text`, trailing newlines dropped. Only the
 * lines kept are copied; the rest is counted.
 */
export function lineWindow(text: string, limit: number, from: "start" | "end"): LineWindow {
  const trimmed = text.replace(/\n+$/, "");
  const total = countLines(trimmed);
  const keep = Math.max(0, Math.min(total, Math.floor(limit)));
  let shown: string;
  if (keep === total) shown = trimmed;
  else if (keep === 0) shown = "";
  else if (from === "end") {
    let at = trimmed.length;
    for (let i = 0; i < keep; i++) at = trimmed.lastIndexOf("\n", at - 1);
    shown = trimmed.slice(at + 1);
  } else {
    let at = -1;
    for (let i = 0; i < keep; i++) at = trimmed.indexOf("\n", at + 1);
    shown = trimmed.slice(0, at);
  }
  let cutChars = 0;
  if (shown.length > MAX_WINDOW_CHARS) {
    cutChars = shown.length - MAX_WINDOW_CHARS;
    shown = from === "end" ? shown.slice(-MAX_WINDOW_CHARS) : shown.slice(0, MAX_WINDOW_CHARS);
  }
  return { text: terminalLines(shown), total, hidden: total - keep, cutChars };
}

/**
 * What a terminal leaves of each line: a carriage return (a progress bar redrawing itself) starts the line over, so
 * only what follows the last one shows; a CR before the newline (CRLF) is only a line end.
 */
function terminalLines(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => {
      const end = line.endsWith("\r") ? line.slice(0, -1) : line;
      return end.slice(end.lastIndexOf("\r") + 1);
    })
    .join("\n");
}

/**
 * The exit code of a bash run: pi 1.6's `structuredContent.exit_code`; else the "Command exited with code N" that
 * both versions end a failing run's text with; else 0 for a run that succeeded (pi fails every other exit code).
 * Undefined while running, and for a failure without one (aborted, timed out).
 */
export function bashExitCode(result: unknown, status: string, text: string): number | undefined {
  if (status !== "done" && status !== "error") return undefined;
  if (isRecord(result) && isRecord(result.structuredContent)) {
    const code = result.structuredContent.exit_code;
    if (typeof code === "number" && Number.isInteger(code)) return code;
  }
  const match = /Command exited with code (\d+)\s*$/.exec(text);
  if (match) return Number(match[1]);
  return status === "done" ? 0 : undefined;
}
