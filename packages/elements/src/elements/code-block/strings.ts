/**
 * pi-code-block's own strings, looked up with `localizeIn` (see i18n/localize.ts): the extension-UI bundle does not
 * carry them. Override them page-wide with `setStrings(lang, { codeCopy: … })`.
 */
export const en = {
  /** The copy button. */
  codeCopy: "Copy",
  /** The copy button's accessible name: what it copies. */
  codeCopyLabel: "Copy code",
  /** The copy button after a copy, and what is announced. */
  codeCopied: "Copied",
  /** The copy button when the clipboard refused, and what is announced. */
  codeCopyFailed: "Copy failed",
  /** The name of the scrollable code, with its language when it has one. */
  codeRegion: "Code",
  codeRegionLanguage: "Code ({language})",
};

export type CodeBlockStringKey = keyof typeof en;

export const ja: { [key in CodeBlockStringKey]?: string } = {
  codeCopy: "コピー",
  codeCopyLabel: "コードをコピー",
  codeCopied: "コピーしました",
  codeCopyFailed: "コピーできませんでした",
  codeRegion: "コード",
  codeRegionLanguage: "コード ({language})",
};

export const zh: { [key in CodeBlockStringKey]?: string } = {
  codeCopy: "复制",
  codeCopyLabel: "复制代码",
  codeCopied: "已复制",
  codeCopyFailed: "复制失败",
  codeRegion: "代码",
  codeRegionLanguage: "代码（{language}）",
};

export const codeBlockStrings = { en, ja, zh };
