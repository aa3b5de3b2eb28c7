/**
 * pi-code-block on its own: a block of code as pi-markdown and the read/write tool cards show it. Not part of the
 * extension-UI bundle: the module defines the element itself.
 */
import "@pi-elements/elements/elements/code-block.js";
import { html } from "lit";
import { type StoryModule, story } from "../story.js";

const typescript = `import { readFile } from "node:fs/promises";

/** Reads the note pi wrote. */
export async function readNote(path = "note.txt"): Promise<string> {
  const note: string = await readFile(path, "utf8");
  return note.trim(); // 日本語のコメントも
}`;

const python = `def greet(name: str) -> str:
    """Greets by name."""
    return f"Hello, {name}!"`;

const wide = `const columns = [${Array.from({ length: 30 }, (_, i) => `"column-${i + 1}"`).join(", ")}];`;

export const codeBlockStories: StoryModule = {
  id: "code-block",
  title: "pi-code-block",
  description:
    "A block of code: its language, a copy button, the code highlighted once the highlighter (loaded on first use) is there; always left to right, focusable so the keyboard scrolls it.",
  stories: [
    story({
      name: "Languages",
      description: "TypeScript and Python highlighted; a language the highlighter does not know, and none, stay plain.",
      knobs: { code: { type: "text", value: typescript, multiline: true } },
      render: (_context, args) => html`<div style="display: grid; gap: 0.75rem">
        <pi-code-block .code=${args.code} language="ts"></pi-code-block>
        <pi-code-block .code=${python} language="python"></pi-code-block>
        <pi-code-block .code=${"frobnicate --all"} language="no-such-language"></pi-code-block>
        <pi-code-block .code=${"Hello, pi! Nice to see you."}></pi-code-block>
      </div>`,
    }),
    story({
      name: "Streaming",
      description: "The code is still growing, as in a message pi is writing: the block is aria-busy.",
      knobs: { code: { type: "text", value: typescript.slice(0, 90), multiline: true } },
      render: (_context, args) => html`<pi-code-block .code=${args.code} language="ts" streaming></pi-code-block>`,
    }),
    story({
      name: "A wide line",
      description: "A line wider than the block scrolls inside it (Tab to it, then the arrow keys); the page does not.",
      knobs: {},
      render: () => html`<pi-code-block .code=${wide} language="js"></pi-code-block>`,
    }),
  ],
};
