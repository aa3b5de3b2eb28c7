/**
 * Extension-UI sub-protocol: the nine `extension_ui_request` methods (agent -> client) and the three
 * `extension_ui_response` shapes (client -> agent), as pi 0.73.1's `rpc-types.d.ts` defines them.
 * Unknown extra fields are tolerated (a newer pi may add some) and kept.
 */
import * as z from "zod/mini";
import { NOTIFY_TYPES } from "./notify-types.js";

export * from "./dialog-methods.js";

const base = { type: z.literal("extension_ui_request"), id: z.string().check(z.minLength(1)) };
const timeout = z.optional(z.number().check(z.nonnegative()));

export const SelectRequest = z.looseObject({
  ...base,
  method: z.literal("select"),
  title: z.string(),
  options: z.array(z.string()),
  timeout,
});
export const ConfirmRequest = z.looseObject({
  ...base,
  method: z.literal("confirm"),
  title: z.string(),
  message: z.string(),
  timeout,
});
export const InputRequest = z.looseObject({
  ...base,
  method: z.literal("input"),
  title: z.string(),
  placeholder: z.optional(z.string()),
  timeout,
});
export const EditorRequest = z.looseObject({
  ...base,
  method: z.literal("editor"),
  title: z.string(),
  prefill: z.optional(z.string()),
});

export const NotifyType = z.enum(NOTIFY_TYPES);
export const NotifyRequest = z.looseObject({
  ...base,
  method: z.literal("notify"),
  message: z.string(),
  /** A type this client does not know (a newer pi's "success") is kept; the store shows it as "info". */
  notifyType: z.optional(z.unknown()),
});
export const SetStatusRequest = z.looseObject({
  ...base,
  method: z.literal("setStatus"),
  statusKey: z.string(),
  /** Absent (or undefined) clears the key; `""` is kept as an entry. */
  statusText: z.optional(z.string()),
});
export const WidgetPlacement = z.enum(["aboveEditor", "belowEditor"]);
export const SetWidgetRequest = z.looseObject({
  ...base,
  method: z.literal("setWidget"),
  widgetKey: z.string(),
  /** Absent (or undefined) clears the widget. */
  widgetLines: z.optional(z.array(z.string())),
  widgetPlacement: z.optional(WidgetPlacement),
});
export const SetTitleRequest = z.looseObject({
  ...base,
  method: z.literal("setTitle"),
  title: z.string(),
});
export const SetEditorTextRequest = z.looseObject({
  ...base,
  method: z.literal("set_editor_text"),
  /** pi 0.73.1's qna example sends none: the store empties the editor. */
  text: z.optional(z.string()),
});

export const ExtensionUiRequest = z.discriminatedUnion("method", [
  SelectRequest,
  ConfirmRequest,
  InputRequest,
  EditorRequest,
  NotifyRequest,
  SetStatusRequest,
  SetWidgetRequest,
  SetTitleRequest,
  SetEditorTextRequest,
]);

export type SelectRequest = z.infer<typeof SelectRequest>;
export type ConfirmRequest = z.infer<typeof ConfirmRequest>;
export type InputRequest = z.infer<typeof InputRequest>;
export type EditorRequest = z.infer<typeof EditorRequest>;
export type NotifyRequest = z.infer<typeof NotifyRequest>;
export type SetStatusRequest = z.infer<typeof SetStatusRequest>;
export type SetWidgetRequest = z.infer<typeof SetWidgetRequest>;
export type SetTitleRequest = z.infer<typeof SetTitleRequest>;
export type SetEditorTextRequest = z.infer<typeof SetEditorTextRequest>;
export type ExtensionUiRequest =
  | SelectRequest
  | ConfirmRequest
  | InputRequest
  | EditorRequest
  | NotifyRequest
  | SetStatusRequest
  | SetWidgetRequest
  | SetTitleRequest
  | SetEditorTextRequest;
export type NotifyType = z.infer<typeof NotifyType>;
export type WidgetPlacement = z.infer<typeof WidgetPlacement>;

export type DialogRequest = SelectRequest | ConfirmRequest | InputRequest | EditorRequest;
export type FireAndForgetRequest = Exclude<ExtensionUiRequest, DialogRequest>;

/**
 * Checked by the bridge, not by the session (which builds its answers itself). Built in a pure-annotated arrow so a
 * bundle that never reads it drops it: a bundler keeps a plain top-level call, since it cannot know zod's is pure.
 */
export const ExtensionUiResponse = /* @__PURE__ */ (() =>
  z.union([
    z.object({ type: z.literal("extension_ui_response"), id: z.string(), value: z.string() }),
    z.object({ type: z.literal("extension_ui_response"), id: z.string(), confirmed: z.boolean() }),
    z.object({ type: z.literal("extension_ui_response"), id: z.string(), cancelled: z.literal(true) }),
  ]))();
export type ExtensionUiResponse = z.infer<typeof ExtensionUiResponse>;
