// Minifies the CSS inside Lit `css` tagged templates at build time (Lit ships what it is given, and Shoelace-style
// unminified styles are a large share of a component bundle). Each template's text is run through esbuild's own CSS
// minifier; `${…}` holes are swapped for placeholder identifiers and put back afterwards. A template the minifier
// rejects is left as it was, so the build never changes what CSS means. html`…` templates lose their source layout
// (minifyHtmlTemplates). test/browser/bundle-parity.test.ts checks the bundle renders what the sources render.
import { readFile } from "node:fs/promises";
import { transform } from "esbuild";

// tsc emits `css \`…\`` with a space before the template.
const TAG = /\bcss\s*`/g;

/** Finds the end of a template literal starting after its opening backtick; returns the index of the closing one. */
function templateEnd(source, start) {
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") i += 2;
    else if (c === "`") return i;
    else if (c === "$" && source[i + 1] === "{") i = expressionEnd(source, i + 2) + 1;
    else i += 1;
  }
  throw new Error("unterminated template literal");
}

/** Finds the `}` closing a `${` hole, skipping nested braces, strings and templates. */
function expressionEnd(source, start) {
  let depth = 0;
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === "`") i = templateEnd(source, i + 1) + 1;
    else if (c === '"' || c === "'") {
      i += 1;
      while (i < source.length && source[i] !== c) i += source[i] === "\\" ? 2 : 1;
      i += 1;
    } else if (c === "{") {
      depth += 1;
      i += 1;
    } else if (c === "}") {
      if (depth === 0) return i;
      depth -= 1;
      i += 1;
    } else i += 1;
  }
  throw new Error("unterminated template expression");
}

/**
 * Splits a template body (the raw text between the backticks) into its static parts and the source of each `${…}`
 * expression between them, as a tag function sees strings and values: `parts.length === expressions.length + 1`.
 */
function splitTemplate(body) {
  const parts = [];
  const expressions = [];
  let text = "";
  let i = 0;
  while (i < body.length) {
    if (body[i] === "\\") {
      text += body.slice(i, i + 2);
      i += 2;
    } else if (body[i] === "$" && body[i + 1] === "{") {
      const end = expressionEnd(body, i + 2);
      parts.push(text);
      expressions.push(body.slice(i + 2, end));
      text = "";
      i = end + 1;
    } else {
      text += body[i];
      i += 1;
    }
  }
  parts.push(text);
  return { parts, expressions };
}

/** Minifies one css template body. */
async function minifyTemplate(body) {
  const { parts, expressions } = splitTemplate(body);
  const holes = expressions.map((expression) => `\${${expression}}`);
  // Each hole becomes a placeholder identifier for the CSS minifier, put back afterwards.
  const text = parts.map((part, n) => (n === 0 ? part : `--pi-hole-${n - 1}-x${part}`)).join("");
  // Holes in rule position (a whole nested `css` value) are not declarations: wrap them so the CSS stays parseable.
  try {
    const { code, warnings } = await transform(text, { loader: "css", minify: true, logLevel: "silent" });
    if (warnings.length > 0) return body;
    let out = code.trimEnd();
    holes.forEach((hole, n) => {
      out = out.split(`--pi-hole-${n}-x`).join(hole);
    });
    // Every hole must survive exactly once, or the template's meaning changed.
    if (holes.some((hole) => out.split(hole).length !== 2)) return body;
    return out.replace(/`/g, "\\`");
  } catch {
    return body;
  }
}

/** Returns `source` with the body of every template tagged by `tag` (a global RegExp) replaced by `transform(body)`. */
async function replaceTemplates(source, tag, transform) {
  let out = "";
  let last = 0;
  tag.lastIndex = 0;
  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    const open = match.index + match[0].length;
    const close = templateEnd(source, open);
    out += source.slice(last, open) + (await transform(source.slice(open, close)));
    last = close;
    // After the transform: a nested call may have moved the shared RegExp's position.
    tag.lastIndex = close + 1;
  }
  return out + source.slice(last);
}

/** Returns `source` with every css`…` template minified. */
export function minifyCssTemplates(source) {
  return replaceTemplates(source, TAG, minifyTemplate);
}

const HTML_TAG = /\bhtml\s*`/g;

/**
 * Collapses the source layout of html`…` templates: every run of whitespace that contains a line break becomes one
 * space. Where whitespace is collapsed (normal flow) that renders the same; the templates put no line break inside
 * an element whose text keeps white space (`pre`, `pre-wrap`), so nothing visible changes there either. Holes are
 * kept, and nested templates inside them get the same treatment.
 */
export function minifyHtmlTemplates(source) {
  return replaceTemplates(source, HTML_TAG, collapseLayout);
}

async function collapseLayout(body) {
  const collapse = (text) => text.replace(/[ \t]*\n\s*/g, " ");
  const { parts, expressions } = splitTemplate(body);
  let out = collapse(parts[0]);
  for (const [n, expression] of expressions.entries()) {
    out += `\${${await minifyHtmlTemplates(expression)}}${collapse(parts[n + 1])}`;
  }
  return out;
}

/** esbuild plugin: minify css`…` and html`…` in the package's own compiled modules. */
export function minifyTemplatesPlugin() {
  return {
    name: "minify-templates",
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/]elements[\\/]dist[\\/].*\.js$/ }, async (args) => {
        const source = await readFile(args.path, "utf8");
        return { contents: await minifyHtmlTemplates(await minifyCssTemplates(source)), loader: "js" };
      });
    },
  };
}
