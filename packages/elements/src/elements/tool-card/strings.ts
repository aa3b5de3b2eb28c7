/**
 * The tool cards' own strings (en, ja, zh-Hans), looked up with `localizeIn`: kept here rather than in
 * i18n/strings.ts so that the extension-UI bundle, which has no tool cards, does not carry them. Page-wide overrides
 * (`setStrings`) reach these keys too.
 */
import type { StringSet } from "../../i18n/localize.js";

export const en = {
  toolCard: "{tool}: {subject}",
  statusStreaming: "preparing",
  statusPending: "waiting",
  statusRunning: "running",
  statusDone: "done",
  statusError: "failed",
  elapsed: "Elapsed {time}",
  took: "Took {time}",
  exitCode: "exit {code}",
  earlierLines: "… {count} earlier lines",
  moreLines: "… {count} more lines",
  moreLinesTotal: "… {count} more lines, {total} total",
  notShown: "{count} lines not shown",
  charsNotShown: "{count} characters not shown",
  showLess: "Show less",
  arguments: "Arguments",
  result: "Result",
  output: "Output",
  noOutput: "(no output)",
  image: "[{type} image]",
  imageAlt: "Image ({type})",
  diff: "Changes",
} as const;

export type ToolCardStringKey = keyof typeof en;
/** Overrides of some of the tool cards' strings, for one language (see `setStrings`). */
export type ToolCardStringTable = { readonly [K in ToolCardStringKey]?: string };

export const ja: ToolCardStringTable = {
  statusStreaming: "準備中",
  statusPending: "待機中",
  statusRunning: "実行中",
  statusDone: "完了",
  statusError: "失敗",
  elapsed: "経過 {time}",
  took: "所要 {time}",
  exitCode: "終了コード {code}",
  earlierLines: "… 前の {count} 行",
  moreLines: "… 残り {count} 行",
  moreLinesTotal: "… 残り {count} 行（全 {total} 行）",
  notShown: "{count} 行は表示されていません",
  charsNotShown: "{count} 文字は表示されていません",
  showLess: "折りたたむ",
  arguments: "引数",
  result: "結果",
  output: "出力",
  noOutput: "（出力なし）",
  image: "[{type} 画像]",
  imageAlt: "画像（{type}）",
  diff: "変更",
};

export const zh: ToolCardStringTable = {
  statusStreaming: "准备中",
  statusPending: "等待中",
  statusRunning: "运行中",
  statusDone: "完成",
  statusError: "失败",
  elapsed: "已用 {time}",
  took: "耗时 {time}",
  exitCode: "退出码 {code}",
  earlierLines: "… 前面 {count} 行",
  moreLines: "… 还有 {count} 行",
  moreLinesTotal: "… 还有 {count} 行，共 {total} 行",
  notShown: "{count} 行未显示",
  charsNotShown: "{count} 个字符未显示",
  showLess: "收起",
  arguments: "参数",
  result: "结果",
  output: "输出",
  noOutput: "（无输出）",
  image: "[{type} 图片]",
  imageAlt: "图片（{type}）",
  diff: "更改",
};

export const toolCardStrings: StringSet<ToolCardStringKey> = { en, ja, zh };
