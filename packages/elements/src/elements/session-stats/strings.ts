/**
 * pi-session-stats' own strings (English, Japanese, Simplified Chinese), looked up with `localizeIn`: they come with
 * this element's module, not with the extension-UI bundle. `{n}` is a number already formatted for the language.
 */
export const en = {
  label: "Session usage",
  input: "Input tokens: {n}",
  output: "Output tokens: {n}",
  cacheRead: "Cache read tokens: {n}",
  cacheWrite: "Cache write tokens: {n}",
  cost: "Cost: {n}",
  context: "Context used: {percent} of {window} tokens",
  contextUnknown: "Context used: unknown until pi's next answer, of {window} tokens",
  warning: "Context nearly full",
  error: "Context almost full",
};
export type SessionStatsStringKey = keyof typeof en;

export const ja: { [key in SessionStatsStringKey]?: string } = {
  label: "セッションの使用量",
  input: "入力トークン: {n}",
  output: "出力トークン: {n}",
  cacheRead: "キャッシュ読み取りトークン: {n}",
  cacheWrite: "キャッシュ書き込みトークン: {n}",
  cost: "コスト: {n}",
  context: "コンテキスト使用量: {window} トークン中 {percent}",
  contextUnknown: "コンテキスト使用量: pi の次の応答まで不明 ({window} トークン中)",
  warning: "コンテキストが残りわずかです",
  error: "コンテキストがほぼ満杯です",
};

export const zh: { [key in SessionStatsStringKey]?: string } = {
  label: "会话用量",
  input: "输入令牌: {n}",
  output: "输出令牌: {n}",
  cacheRead: "缓存读取令牌: {n}",
  cacheWrite: "缓存写入令牌: {n}",
  cost: "费用: {n}",
  context: "已用上下文: {window} 令牌中的 {percent}",
  contextUnknown: "已用上下文: 在 pi 下次回答前未知 (共 {window} 令牌)",
  warning: "上下文即将用尽",
  error: "上下文几乎已满",
};

export const sessionStatsStrings = { en, ja, zh };
