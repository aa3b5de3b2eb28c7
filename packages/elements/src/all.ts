/** Registers every pi-* element (each only if its tag is still free) and exports all classes. */
import "./elements/confirm/define.js";
import "./elements/editor/define.js";
import "./elements/extension-ui/define.js";
import "./elements/input/define.js";
import "./elements/notifications/define.js";
import "./elements/prompt/define.js";
import "./elements/select/define.js";
import "./elements/session/define.js";
import "./elements/status-bar/define.js";
import "./elements/widget-slot/define.js";

export * from "./index.js";
