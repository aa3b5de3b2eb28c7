/**
 * pi-thinking-level's own strings (English, Japanese, Simplified Chinese), looked up with `localizeIn`: they come
 * with this element's module, not with the extension-UI bundle. The level names are pi's levels in words; the value
 * sent is always pi's own (`"high"`).
 */
export const en = {
  label: "Thinking",
  off: "Off",
  minimal: "Minimal",
  low: "Low",
  medium: "Medium",
  high: "High",
  xhigh: "Extra high",
  max: "Max",
  noReasoning: "This model does not reason.",
  noModel: "No model yet.",
  agentDown: "pi is not running.",
  failed: "pi did not change the thinking level: {error}",
};
export type ThinkingLevelStringKey = keyof typeof en;

export const ja: { [key in ThinkingLevelStringKey]?: string } = {
  label: "思考",
  off: "オフ",
  minimal: "最小",
  low: "低",
  medium: "中",
  high: "高",
  xhigh: "非常に高",
  max: "最大",
  noReasoning: "このモデルは推論しません。",
  noModel: "モデルがまだありません。",
  agentDown: "pi が動いていません。",
  failed: "pi は思考レベルを変更しませんでした: {error}",
};

export const zh: { [key in ThinkingLevelStringKey]?: string } = {
  label: "思考",
  off: "关闭",
  minimal: "最少",
  low: "低",
  medium: "中",
  high: "高",
  xhigh: "极高",
  max: "最大",
  noReasoning: "此模型不进行推理。",
  noModel: "尚无模型。",
  agentDown: "pi 未在运行。",
  failed: "pi 未更改思考级别: {error}",
};

export const thinkingLevelStrings = { en, ja, zh };
