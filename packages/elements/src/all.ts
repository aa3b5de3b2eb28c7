/** Registers every pi-* element (each only if its tag is still free) and exports all classes. */
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

export * from "./index.js";
