export { ansiStyles } from "./ansi.styles.js";
export { type AnsiColor, type AnsiRun, type AnsiStyle, paletteColor, parseAnsi, stripAnsi } from "./parse-ansi.js";
export { MAX_STYLED_RUNS, renderAnsi } from "./render-ansi.js";
