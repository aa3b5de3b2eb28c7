/**
 * The transcript's own strings (en, ja, Simplified Chinese), looked up with `localizeIn`: they live here, not in
 * i18n/strings.ts, so the extension-UI bundle, which does not load the transcript, does not carry them. Page-wide
 * overrides (`setStrings`) and the element's `strings` property take these keys too.
 */
export const en = {
  /** The feed's name. */
  conversation: "Conversation",
  /** Author of a user message. */
  you: "You",
  /** Author of an assistant message. */
  assistant: "pi",
  /** A thinking block while it streams. */
  thinking: "Thinking…",
  /** A finished thinking block whose duration this page saw. */
  thoughtFor: "Thought for {seconds} s",
  /** A finished thinking block from the history (no duration known). */
  thought: "Thought",
  redactedThinking: "Thinking (redacted)",
  jumpToLatest: "Jump to latest",
  copyMessage: "Copy message",
  copied: "Copied",
  /** A toggle button (aria-pressed): the same label pressed or not. */
  expandTools: "Expand all tool output",
  collapseTools: "Collapse all tool output",
  aborted: "Aborted",
  failed: "Failed",
  /** Author of a user's own shell command (`!cmd`). */
  shellCommand: "Shell command",
  exitCode: "Exit code {code}",
  cancelled: "Cancelled",
  truncated: "Output truncated",
  compaction: "Compaction",
  compacting: "Compacting the conversation…",
  compacted: "Conversation compacted",
  compactionAborted: "Compaction aborted",
  compactionFailed: "Compaction failed",
  compactionSummary: "Summary of earlier conversation",
  branchSummary: "Summary of another branch",
  retry: "Retry",
  retryWaiting: "Retrying (attempt {attempt} of {max})",
  retrySucceeded: "Retry succeeded (attempt {attempt})",
  retryFailed: "Retry failed",
  extensionError: "Extension error",
  /** Where an extension error happened: "in {extension} ({event})". */
  extensionErrorWhere: "{extension}, during {event}",
  image: "Image",
  unsupportedImage: "Image not shown ({type})",
  /** A message of a role this client does not know. */
  otherMessage: "Message ({role})",
  /** A custom message: its extension's type. */
  customMessage: "Extension message: {type}",
  /** Announced once when an assistant message finishes: its text, shortened. */
  announceMessage: "pi: {text}",
  /** Announced when a finished assistant message has no text (only tool calls). */
  announceTools: "pi used {tools}",
  announceAborted: "pi's answer was aborted",
  announceFailed: "pi's answer failed: {error}",
};

export type TranscriptStringKey = keyof typeof en;
export type TranscriptStrings = { readonly [key in TranscriptStringKey]?: string };

export const ja: TranscriptStrings = {
  conversation: "会話",
  you: "あなた",
  assistant: "pi",
  thinking: "考え中…",
  thoughtFor: "{seconds} 秒考えました",
  thought: "思考",
  redactedThinking: "思考（非公開）",
  jumpToLatest: "最新へ移動",
  copyMessage: "メッセージをコピー",
  copied: "コピーしました",
  expandTools: "ツール出力をすべて展開",
  collapseTools: "ツール出力をすべて折りたたむ",
  aborted: "中断されました",
  failed: "失敗しました",
  shellCommand: "シェルコマンド",
  exitCode: "終了コード {code}",
  cancelled: "キャンセルされました",
  truncated: "出力は省略されています",
  compaction: "圧縮",
  compacting: "会話を圧縮しています…",
  compacted: "会話を圧縮しました",
  compactionAborted: "圧縮は中断されました",
  compactionFailed: "圧縮に失敗しました",
  compactionSummary: "それまでの会話の要約",
  branchSummary: "別のブランチの要約",
  retry: "再試行",
  retryWaiting: "再試行しています（{attempt} / {max} 回目）",
  retrySucceeded: "再試行に成功しました（{attempt} 回目）",
  retryFailed: "再試行に失敗しました",
  extensionError: "拡張機能のエラー",
  extensionErrorWhere: "{extension}、{event} の処理中",
  image: "画像",
  unsupportedImage: "表示できない画像（{type}）",
  otherMessage: "メッセージ（{role}）",
  customMessage: "拡張機能のメッセージ: {type}",
  announceMessage: "pi: {text}",
  announceTools: "pi が {tools} を使いました",
  announceAborted: "pi の回答は中断されました",
  announceFailed: "pi の回答は失敗しました: {error}",
};

export const zh: TranscriptStrings = {
  conversation: "对话",
  you: "你",
  assistant: "pi",
  thinking: "正在思考…",
  thoughtFor: "思考了 {seconds} 秒",
  thought: "思考",
  redactedThinking: "思考（已隐去）",
  jumpToLatest: "跳到最新",
  copyMessage: "复制消息",
  copied: "已复制",
  expandTools: "展开所有工具输出",
  collapseTools: "折叠所有工具输出",
  aborted: "已中止",
  failed: "失败",
  shellCommand: "Shell 命令",
  exitCode: "退出码 {code}",
  cancelled: "已取消",
  truncated: "输出已截断",
  compaction: "压缩",
  compacting: "正在压缩对话…",
  compacted: "对话已压缩",
  compactionAborted: "压缩已中止",
  compactionFailed: "压缩失败",
  compactionSummary: "先前对话的摘要",
  branchSummary: "另一分支的摘要",
  retry: "重试",
  retryWaiting: "正在重试（第 {attempt} 次，共 {max} 次）",
  retrySucceeded: "重试成功（第 {attempt} 次）",
  retryFailed: "重试失败",
  extensionError: "扩展错误",
  extensionErrorWhere: "{extension}，处理 {event} 时",
  image: "图片",
  unsupportedImage: "无法显示的图片（{type}）",
  otherMessage: "消息（{role}）",
  customMessage: "扩展消息：{type}",
  announceMessage: "pi：{text}",
  announceTools: "pi 使用了 {tools}",
  announceAborted: "pi 的回答已中止",
  announceFailed: "pi 的回答失败：{error}",
};

export const transcriptStrings = { en, ja, zh };
