/**
 * The built-in cards for pi's own tools, drawn the way pi's TUI draws them (pi-coding-agent `core/tools/*.js`):
 * bash shows the last 5 lines of its output, read and write the first 10, grep 15, find and ls 20, each with how many
 * lines are hidden; edit shows pi's diff with the changed words marked; any other tool gets the generic card (its
 * arguments and its result).
 */
import { html, nothing, type TemplateResult } from "lit";
import { DIFF_AT_ONCE, diffRows } from "./diff-rows.js";
import { type DiffRow, editsAsRows, parseEditDiff } from "./edit-diff.js";
import { languageForPath } from "./language.js";
import { bashExitCode, countLines, isRecord, MAX_EXPANDED_LINES, stringArg } from "./output.js";
import type { ToolRenderContext, ToolRendererEntry } from "./registry.js";

/** pi's preview sizes (its TUI's collapsed tool output). */
export const PREVIEW_LINES = { bash: 5, read: 10, write: 10, grep: 15, find: 20, ls: 20, generic: 10 } as const;

const path = (args: Readonly<Record<string, unknown>>) => stringArg(args, "path", "file_path") ?? "";

/** pi's read range: `:offset-end` from `offset` (1-based) and `limit`. */
function readRange(args: Readonly<Record<string, unknown>>): string {
  const { offset, limit } = args;
  const start = typeof offset === "number" ? offset : undefined;
  const count = typeof limit === "number" ? limit : undefined;
  if (start === undefined && count === undefined) return "";
  const first = start ?? 1;
  return count === undefined ? `:${first}` : `:${first}-${first + count - 1}`;
}

/** The error a failed call reports, in the error colour. */
function errorText(context: ToolRenderContext): TemplateResult | typeof nothing {
  if (context.status !== "error" || context.text === "") return nothing;
  return html`<pre part="error" dir="auto">${context.text}</pre>`;
}

const bash: ToolRendererEntry = {
  subject: (args) => stringArg(args, "command") ?? "",
  render(_call, execution, context) {
    const code = bashExitCode(execution?.result, context.status, context.text);
    return html`${context.output(context.text, { lines: PREVIEW_LINES.bash, from: "end" })}
    ${
      code === undefined
        ? nothing
        : html`<p part="exit-code" data-code=${code}>${context.localize("exitCode", { code })}</p>`
    }`;
  },
};

const read: ToolRendererEntry = {
  subject: (args) => `${path(args)}${readRange(args)}`,
  render(_call, _execution, context) {
    if (context.status === "error") return errorText(context) as TemplateResult;
    return context.output(context.text, {
      lines: PREVIEW_LINES.read,
      from: "start",
      ansi: false,
      language: languageForPath(path(context.args)),
    });
  },
};

const write: ToolRendererEntry = {
  subject: path,
  render(_call, _execution, context) {
    const content = stringArg(context.args, "content") ?? "";
    return html`${context.output(content, {
      lines: PREVIEW_LINES.write,
      from: "start",
      ansi: false,
      showTotal: true,
      language: languageForPath(path(context.args)),
    })}${errorText(context)}`;
  },
};

const edit: ToolRendererEntry = {
  subject: path,
  render(_call, execution, context) {
    if (context.status === "error") return errorText(context) as TemplateResult;
    const result = execution?.result;
    const diff = isRecord(result) && isRecord(result.details) ? result.details.diff : undefined;
    // Before pi's diff exists (the call streams or runs), the edits as the model wrote them.
    if (typeof diff === "string") {
      // A long diff's renders draw its rows (diff-rows.ts): its word marks are made in tasks of their own.
      const total = countLines(diff);
      const rows = parseEditDiff(
        diff,
        () => context.requestUpdate(),
        MAX_EXPANDED_LINES,
        total > DIFF_AT_ONCE ? 0 : undefined,
        context.limits,
      );
      return renderDiff(rows, total, context);
    }
    const rows = editsAsRows(context.args, MAX_EXPANDED_LINES);
    return renderDiff(rows, rows.length, context);
  },
};

/**
 * The rows of a diff (at most MAX_EXPANDED_LINES of its `total`), each sign, line number and text in its column; a
 * long one in groups drawn over several tasks (diff-rows.ts).
 */
function renderDiff(rows: DiffRow[], total: number, context: ToolRenderContext): TemplateResult {
  if (rows.length === 0) return html``;
  const shown = rows.slice(0, MAX_EXPANDED_LINES);
  const hidden = total - shown.length;
  return html`<div part="diff" role="group" aria-label=${context.localize("diff")} dir="ltr">
    ${diffRows(shown, context)}
    ${hidden > 0 ? html`<p part="note">${context.localize("notShown", { count: hidden })}</p>` : nothing}
  </div>`;
}

const grep: ToolRendererEntry = {
  subject: (args) => {
    const glob = stringArg(args, "glob");
    return `/${stringArg(args, "pattern") ?? ""}/ in ${stringArg(args, "path") || "."}${glob ? ` (${glob})` : ""}`;
  },
  render: (_call, _execution, context) => context.output(context.text, { lines: PREVIEW_LINES.grep, from: "start" }),
};

const find: ToolRendererEntry = {
  subject: (args) => `${stringArg(args, "pattern") ?? ""} in ${stringArg(args, "path") || "."}`,
  render: (_call, _execution, context) => context.output(context.text, { lines: PREVIEW_LINES.find, from: "start" }),
};

const ls: ToolRendererEntry = {
  subject: (args) => stringArg(args, "path") || ".",
  render: (_call, _execution, context) => context.output(context.text, { lines: PREVIEW_LINES.ls, from: "start" }),
};

/** Arguments as JSON, for the generic card; a value JSON cannot write (a cycle) shows as nothing. */
function argumentsJson(args: Readonly<Record<string, unknown>>): string {
  try {
    return Object.keys(args).length === 0 ? "" : JSON.stringify(args, null, 2);
  } catch {
    return "";
  }
}

/** The card of any tool without a renderer of its own: its arguments, then its result. */
export const genericRenderer: ToolRendererEntry = {
  subject: (args) => {
    for (const value of Object.values(args)) if (typeof value === "string") return value;
    return "";
  },
  render(_call, _execution, context) {
    const json = argumentsJson(context.args);
    return html`${
      json
        ? html`<div part="section">
          <p part="section-label">${context.localize("arguments")}</p>
          ${context.output(json, { lines: PREVIEW_LINES.generic, from: "start", ansi: false, language: "json" })}
        </div>`
        : nothing
    }
    ${
      context.text
        ? html`<div part="section">
          <p part="section-label">${context.localize("result")}</p>
          ${context.output(context.text, { lines: PREVIEW_LINES.generic, from: "start" })}
        </div>`
        : nothing
    }`;
  },
};

/** pi's built-in tools. */
export const builtInRenderers: Readonly<Record<string, ToolRendererEntry>> = {
  bash,
  read,
  write,
  edit,
  grep,
  find,
  ls,
};
