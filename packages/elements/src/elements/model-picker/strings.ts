/**
 * pi-model-picker's own strings (English, Japanese, Simplified Chinese), looked up with `localizeIn`: they come with
 * this element's module, not with the extension-UI bundle.
 */
export const en = {
  button: "Model: {model}",
  noModel: "No model",
  filter: "Filter models",
  models: "Models",
  loading: "Loading models…",
  none: "pi has no models configured.",
  noMatches: "No model matches.",
  current: "current",
  reasoning: "reasoning",
  context: "{window} context",
  contextSpoken: "context window {window} tokens",
  switching: "Switching to {model}…",
  agentDown: "pi is not running.",
  failed: "pi did not switch the model: {error}",
};
export type ModelPickerStringKey = keyof typeof en;

export const ja: { [key in ModelPickerStringKey]?: string } = {
  button: "モデル: {model}",
  noModel: "モデルなし",
  filter: "モデルを絞り込む",
  models: "モデル",
  loading: "モデルを読み込み中…",
  none: "pi にモデルが設定されていません。",
  noMatches: "一致するモデルはありません。",
  current: "現在",
  reasoning: "推論",
  context: "コンテキスト {window}",
  contextSpoken: "コンテキストウィンドウ {window} トークン",
  switching: "{model} に切り替え中…",
  agentDown: "pi が動いていません。",
  failed: "pi はモデルを切り替えませんでした: {error}",
};

export const zh: { [key in ModelPickerStringKey]?: string } = {
  button: "模型: {model}",
  noModel: "无模型",
  filter: "筛选模型",
  models: "模型",
  loading: "正在加载模型…",
  none: "pi 未配置任何模型。",
  noMatches: "没有匹配的模型。",
  current: "当前",
  reasoning: "推理",
  context: "上下文 {window}",
  contextSpoken: "上下文窗口 {window} 令牌",
  switching: "正在切换到 {model}…",
  agentDown: "pi 未在运行。",
  failed: "pi 未切换模型: {error}",
};

export const modelPickerStrings = { en, ja, zh };
