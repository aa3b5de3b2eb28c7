/**
 * Built-in strings in English, Japanese and Simplified Chinese. A key missing from a language falls back to
 * English. Add a key to `en` first; the type makes the other tables list the same keys.
 */
export const en = {
  yes: "Yes",
  no: "No",
  cancel: "Cancel",
  submit: "Submit",
  dismiss: "Dismiss",
  filter: "Filter options",
  noMatches: "No matching options",
  /** Under a long list's filter field: how many options there are, and how many pass the filter. */
  optionCount: "{count} options",
  optionMatches: "{shown} of {count} options",
  noOptions: "No options to choose from",
  /** Accessible name of a dialog whose title is empty. */
  untitledDialog: "Question from the agent",
  /** {seconds} remaining before a timed dialog closes itself. */
  secondsLeft: "{seconds}s",
  timeoutNotice: "Closes in {seconds} seconds",
  /** "1 of 3" pending dialogs. */
  queuePosition: "{index} of {total}",
  /** The queue bar's name. */
  queueLabel: "Waiting dialogs",
  queuePrevious: "Previous dialog",
  queueNext: "Next dialog",
  /** Said once when a dialog starts waiting behind the one shown. */
  queueWaiting: "Also waiting: {title}",
  queueWaitingTimed: "Also waiting: {title}, closes in {seconds} seconds",
  widgetTruncated: "… (widget truncated)",
  widgets: "Extension widgets",
  showAll: "Show all {count} lines",
  showLess: "Show less",
  moreNotifications: "+{count} more",
  notifications: "Notifications",
  /** Marks a notification pi sent before the page connected. */
  earlier: "Earlier",
  /** The toggle of the collapsed list of notifications that are not news. */
  earlierNotifications: "Earlier notifications ({count})",
  info: "Info",
  warning: "Warning",
  error: "Error",
  /** Where an error the page reports itself came from: a command pi refused, e.g. "prompt failed". */
  commandFailed: "{command} failed",
  /** The origin of an extension's error when pi names no file. */
  extension: "Extension",
  /** The origin of a problem the agent process reported on its stderr (through the bridge). */
  agentDiagnostic: "pi",
  status: "Status",
  prompt: "Message pi",
  /** The slash-command completion list. */
  commands: "Commands",
  send: "Send",
  steer: "Steer",
  followUp: "Follow up",
  abort: "Stop",
  editorHint: "Enter to submit, Shift+Enter for a new line",
  editorHintModEnter: "Ctrl+Enter to submit",
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Reconnecting…",
  closed: "Disconnected",
  agentExited: "The agent exited (code {code})",
  /** Instead of agentExited when pi ended by itself (exit code 0: an extension's ctx.shutdown(), /quit). */
  agentStopped: "pi has stopped (it ended by itself).",
  /** The button in the agent-exit alert that asks the bridge to start pi again. */
  restartAgent: "Restart pi",
  /** That button while pi starts again. */
  restarting: "Restarting…",
  /** Instead of the button, under a bridge started with --restart never. */
  restartNever: "This bridge does not restart pi (--restart never): restart pi-bridge to start it again.",
  /** After a text of pi's that says to use /login, a command of pi's terminal that a page cannot run. */
  loginAdvice:
    "/login works only in pi's own terminal. Sign in there (run pi in a terminal on the machine this pi runs on, then /login), or give the bridge the provider's API key in its environment; then restart pi-bridge so pi reads it.",
  /** The session ended for good (closed, its stream ended, reconnects ran out): nothing more reaches pi. */
  sessionEnded: "The session has ended: the agent is gone.",
  /**
   * Beside a control disabled because the session ended (pi-session-actions, pi-model-picker, pi-thinking-level):
   * short, since pi-prompt and pi-extension-ui say why and what to do.
   */
  sessionEndedShort: "The session has ended.",
  /** Instead of sessionEnded when the bridge refused the page's token (it restarted with a new one, or a wrong link). */
  tokenRefused:
    "The bridge refused this page's token (it may have restarted with a new one). Open the address it printed.",
  /** After sessionEnded, in pi-extension-ui: the titles of the dialogs that were still pending. */
  unansweredAtEnd: "Not answered: {titles}.",
  /** Between the titles of a list in running text. */
  listSeparator: ", ",
  /** In a dialog whose session ended: its answer cannot be sent any more. */
  dialogSessionEnded: "The session has ended: this answer can no longer be sent. Close the dialog to go on.",
  /** In a dialog whose session refused the answer (it did not fit the question): nothing was sent. */
  answerRefused: "This answer could not be sent.",
  /** The prompt's command was sent and pi has not answered it yet (a slash command runs until it is done). */
  running: "Running…",
  /** The agent's run, in the prompt's status. */
  working: "Working…",
  compacting: "Compacting…",
  /** pi waits to retry after an error: attempt {attempt} of {max}. */
  retrying: "Retrying ({attempt} of {max})…",
  /** The prompt's list of messages pi has queued while it works. */
  queued: "Queued messages",
  /** The button that takes a queued message back into the box; its name adds the message: "Take back: {text}". */
  takeBack: "Take back",
  takeBackLabel: "Take back: {text}",
  /** pi 0.73.1 cannot clear its queue. */
  queueKept: "This pi cannot take queued messages back: after Stop they stay queued and go with the next message.",
  /** A queued message pi delivered before it could be taken back. */
  alreadySent: "pi had already taken that message.",
  /** The prompt's attached images. */
  images: "Images",
  removeImage: "Remove {name}",
  imageTooLarge: "{name} is larger than {limit}: not attached.",
  tooManyImages: "At most {count} images: {name} not attached.",
  notAnImage: "{name} is not a PNG, JPEG, GIF or WebP image: not attached.",
} as const;

export type StringKey = keyof typeof en;
export type StringTable = { readonly [K in StringKey]?: string };

export const ja: StringTable = {
  yes: "はい",
  no: "いいえ",
  cancel: "キャンセル",
  submit: "送信",
  dismiss: "閉じる",
  filter: "選択肢を絞り込む",
  noMatches: "一致する選択肢はありません",
  optionCount: "選択肢{count}件",
  optionMatches: "{count}件中{shown}件",
  noOptions: "選択肢がありません",
  untitledDialog: "エージェントからの質問",
  secondsLeft: "{seconds}秒",
  timeoutNotice: "{seconds}秒後に閉じます",
  queuePosition: "{total}件中{index}件目",
  queueLabel: "待機中のダイアログ",
  queuePrevious: "前のダイアログ",
  queueNext: "次のダイアログ",
  queueWaiting: "待機中: {title}",
  queueWaitingTimed: "待機中: {title}（{seconds}秒後に閉じます）",
  widgetTruncated: "…（ウィジェットは省略されました）",
  widgets: "拡張機能のウィジェット",
  showAll: "全{count}行を表示",
  showLess: "折りたたむ",
  moreNotifications: "他{count}件",
  notifications: "通知",
  earlier: "以前",
  earlierNotifications: "以前の通知（{count}件）",
  info: "情報",
  warning: "警告",
  error: "エラー",
  commandFailed: "{command} に失敗しました",
  extension: "拡張機能",
  agentDiagnostic: "pi",
  status: "ステータス",
  prompt: "pi へのメッセージ",
  commands: "コマンド",
  send: "送信",
  steer: "割り込む",
  followUp: "後で送る",
  abort: "停止",
  editorHint: "Enter で送信、Shift+Enter で改行",
  editorHintModEnter: "Ctrl+Enter で送信",
  connecting: "接続中…",
  open: "接続済み",
  reconnecting: "再接続中…",
  running: "実行中…",
  working: "作業中…",
  compacting: "圧縮中…",
  retrying: "再試行中（{max}回中{attempt}回目）…",
  queued: "待機中のメッセージ",
  takeBack: "取り戻す",
  takeBackLabel: "取り戻す: {text}",
  queueKept: "この pi は待機中のメッセージを取り戻せません。停止後も待機したままで、次のメッセージと一緒に送られます。",
  alreadySent: "そのメッセージは pi がすでに受け取りました。",
  images: "画像",
  removeImage: "{name} を削除",
  imageTooLarge: "{name} は {limit} を超えるため添付しません。",
  tooManyImages: "画像は {count} 枚までです。{name} は添付しません。",
  notAnImage: "{name} は PNG・JPEG・GIF・WebP 画像ではないため添付しません。",
  closed: "切断されました",
  agentExited: "エージェントが終了しました（コード {code}）",
  agentStopped: "pi は自ら終了しました。",
  restartAgent: "pi を再起動",
  restarting: "再起動中…",
  restartNever: "このブリッジは pi を再起動しません（--restart never）。pi-bridge を再起動してください。",
  loginAdvice:
    "/login は pi のターミナルでのみ使えます。この pi が動いているマシンのターミナルで pi を起動して /login でサインインするか、プロバイダーの API キーをブリッジの環境変数に設定し、pi-bridge を再起動して pi に読み込ませてください。",
  sessionEnded: "セッションは終了しました。エージェントとの接続はありません。",
  sessionEndedShort: "セッションは終了しました。",
  tokenRefused:
    "ブリッジがこのページのトークンを拒否しました（新しいトークンで再起動した可能性があります）。ブリッジが表示したアドレスを開いてください。",
  unansweredAtEnd: "未回答: {titles}",
  listSeparator: "、",
  dialogSessionEnded: "セッションは終了しました。この回答はもう送信できません。ダイアログを閉じてください。",
  answerRefused: "この回答は送信できませんでした。",
};

export const zhHans: StringTable = {
  yes: "是",
  no: "否",
  cancel: "取消",
  submit: "提交",
  dismiss: "关闭",
  filter: "筛选选项",
  noMatches: "没有匹配的选项",
  optionCount: "共{count}个选项",
  optionMatches: "{count}个选项中的{shown}个",
  noOptions: "没有可选的选项",
  untitledDialog: "来自代理的问题",
  secondsLeft: "{seconds}秒",
  timeoutNotice: "{seconds}秒后关闭",
  queuePosition: "第{index}个，共{total}个",
  queueLabel: "等待中的对话框",
  queuePrevious: "上一个对话框",
  queueNext: "下一个对话框",
  queueWaiting: "等待中：{title}",
  queueWaitingTimed: "等待中：{title}（{seconds}秒后关闭）",
  widgetTruncated: "…（小组件已截断）",
  widgets: "扩展小部件",
  showAll: "显示全部{count}行",
  showLess: "收起",
  moreNotifications: "还有{count}条",
  notifications: "通知",
  earlier: "之前",
  earlierNotifications: "之前的通知（{count}条）",
  info: "信息",
  warning: "警告",
  error: "错误",
  commandFailed: "{command} 失败",
  extension: "扩展",
  agentDiagnostic: "pi",
  status: "状态",
  prompt: "给 pi 的消息",
  commands: "命令",
  send: "发送",
  steer: "插话",
  followUp: "稍后发送",
  abort: "停止",
  editorHint: "Enter 提交，Shift+Enter 换行",
  editorHintModEnter: "Ctrl+Enter 提交",
  connecting: "正在连接…",
  open: "已连接",
  reconnecting: "正在重新连接…",
  running: "正在运行…",
  working: "正在工作…",
  compacting: "正在压缩…",
  retrying: "正在重试（第 {attempt} 次，共 {max} 次）…",
  queued: "排队的消息",
  takeBack: "取回",
  takeBackLabel: "取回：{text}",
  queueKept: "此 pi 无法取回排队的消息：停止后它们仍在排队，并随下一条消息发送。",
  alreadySent: "pi 已经接收了那条消息。",
  images: "图片",
  removeImage: "移除 {name}",
  imageTooLarge: "{name} 超过 {limit}，未附加。",
  tooManyImages: "最多 {count} 张图片：{name} 未附加。",
  notAnImage: "{name} 不是 PNG、JPEG、GIF 或 WebP 图片，未附加。",
  closed: "已断开",
  agentExited: "代理已退出（代码 {code}）",
  agentStopped: "pi 已自行结束。",
  restartAgent: "重启 pi",
  restarting: "正在重启…",
  restartNever: "此桥接不会重启 pi（--restart never）：请重启 pi-bridge。",
  loginAdvice:
    "/login 只能在 pi 自己的终端中使用。请在运行此 pi 的机器上打开终端运行 pi，再输入 /login 登录；或在桥接的环境变量中设置提供商的 API 密钥。然后重启 pi-bridge，让 pi 读取它。",
  sessionEnded: "会话已结束：代理已不在。",
  sessionEndedShort: "会话已结束。",
  tokenRefused: "桥接拒绝了此页面的令牌（它可能已用新令牌重启）。请打开桥接打印的地址。",
  unansweredAtEnd: "未回答：{titles}。",
  listSeparator: "、",
  dialogSessionEnded: "会话已结束：此回答已无法发送。请关闭对话框。",
  answerRefused: "此回答无法发送。",
};
