/**
 * The extension UI's element classes and the shared pieces, without registering any tag: what `index.js` and
 * `extension-ui.js` (so the extension-UI bundle) export. The conversation's classes and the session controls' are
 * added by `index.js` only, so the bundle does not carry them.
 */
/** The type of the `clock` properties: the core's, exported here too so a page typing one needs no second import. */
export type { Clock } from "@pi-elements/core";
export {
  type DialogCancelSource,
  DialogElement,
  type PiCancelDetail,
  type PiSubmitDetail,
} from "./base/dialog-element.js";
export { PiElement } from "./base/pi-element.js";
export * from "./context.js";
export * from "./controllers/session-store-controller.js";
export * from "./elements/confirm/confirm.js";
export * from "./elements/editor/editor.js";
export * from "./elements/extension-ui/extension-ui.js";
export * from "./elements/input/input.js";
export * from "./elements/notifications/notifications.js";
export * from "./elements/prompt/prompt.js";
export * from "./elements/select/select.js";
export * from "./elements/session/session.js";
export * from "./elements/status-bar/status-bar.js";
export * from "./elements/widget-slot/widget-slot.js";
export { isRtl, localize, localizeIn, nearestLang, type StringSet, setStrings } from "./i18n/localize.js";
export type { StringKey, StringTable } from "./i18n/strings.js";
export { tokens } from "./theme/tokens.js";
