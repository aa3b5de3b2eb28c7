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
};

export type MarkdownStringKey = keyof typeof en;

export const ja: { [key in MarkdownStringKey]?: string } = {
  markdownTable: "表",
  markdownTask: "タスク",
  markdownImage: "画像: {alt}",
  markdownImageUntitled: "画像",
};

export const zh: { [key in MarkdownStringKey]?: string } = {
  markdownTable: "表格",
  markdownTask: "任务",
  markdownImage: "图片：{alt}",
  markdownImageUntitled: "图片",
};

export const markdownStrings = { en, ja, zh };
