/**
 * Registers the extension UI's elements (each only if its tag is still free) and exports their classes: `pi-session`,
 * the four dialogs, `pi-extension-ui`, `pi-prompt`, `pi-status-bar`, `pi-widget-slot` and `pi-notifications`. The
 * entry of `dist/pi-elements.bundle.js` and of `@pi-elements/elements/extension-ui.js`, for a page that shows only
 * pi's extension UI and should not pay for the conversation's elements (`transcript.js`) or the session controls.
 * `all.js` registers every element.
 */
// pi-session first: its consumers then find their provider at once. (Any order works: see ContextRoot in context.ts.)
import "./elements/session/define.js";
import "./elements/confirm/define.js";
import "./elements/editor/define.js";
import "./elements/extension-ui/define.js";
import "./elements/input/define.js";
import "./elements/notifications/define.js";
import "./elements/prompt/define.js";
import "./elements/select/define.js";
import "./elements/status-bar/define.js";
import "./elements/widget-slot/define.js";

export * from "./extension-ui-classes.js";
