/**
 * The conversation's elements, registered (each only if its tag is still free) and exported: the entry of
 * `dist/pi-transcript.bundle.js` and of `@pi-elements/elements/transcript.js`. Not part of the extension-UI bundle
 * (`extension-ui.js`): a page that shows only the extension UI does not pay for them; `all.js` has them. They read the core's conversation store
 * (`conversationOf(session)` of `@pi-elements/core/conversation`) of the session an ancestor `<pi-session>` provides,
 * or their own `session`.
 */
import "./elements/code-block/define.js";
import "./elements/markdown/define.js";
import "./elements/tool-card/define.js";
import "./elements/transcript/define.js";

export * from "./elements/code-block/define.js";
export * from "./elements/markdown/define.js";
export * from "./elements/tool-card/define.js";
export * from "./elements/transcript/define.js";
