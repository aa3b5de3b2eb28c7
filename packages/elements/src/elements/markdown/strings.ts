/**
 * pi-markdown's own strings, looked up with `localizeIn` (see i18n/localize.ts): the extension-UI bundle does not
 * carry them. Override them page-wide with `setStrings(lang, { markdownTable: … })`.
 */
export const en = {
  /** The name of a table's scroll region. */
  markdownTable: "Table",
  /** The name of a task list item's checkbox. */
  markdownTask: "Task",
  /** An image shown as a link (the default: remote images are not loaded). */
  markdownImage: "Image: {alt}",
  /** An image without alt text. */
  markdownImageUntitled: "Image",
  /** Beside a block shown as written because formatting it would take too long (see pi-markdown's `limits`). */
  markdownLimited: "Shown as written: formatting this much Markdown would keep the page busy.",
  /** The button that formats it all the same. */
  markdownFormatAnyway: "Format it",
};

export type MarkdownStringKey = keyof typeof en;

export const ja: { [key in MarkdownStringKey]?: string } = {
  markdownTable: "表",
  markdownTask: "タスク",
  markdownImage: "画像: {alt}",
  markdownImageUntitled: "画像",
  markdownLimited: "書かれたとおりに表示しています。この量の Markdown を整形するとページが応答しなくなります。",
  markdownFormatAnyway: "整形する",
};

export const zh: { [key in MarkdownStringKey]?: string } = {
  markdownTable: "表格",
  markdownTask: "任务",
  markdownImage: "图片：{alt}",
  markdownImageUntitled: "图片",
  markdownLimited: "按原文显示：格式化这么多 Markdown 会让页面长时间无响应。",
  markdownFormatAnyway: "仍然格式化",
};

export const markdownStrings = { en, ja, zh };
