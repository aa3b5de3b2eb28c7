/**
 * The conversation's elements, registered (each only if its tag is still free) and exported: the entry of
 * `dist/pi-transcript.bundle.js` and of `@pi-elements/elements/transcript.js`. Not part of the extension-UI bundle or
 * of `all.js`: a page that shows only the extension UI does not pay for them. They read the core's conversation store
 * (`conversationOf(session)` of `@pi-elements/core/conversation`) of the session an ancestor `<pi-session>` provides,
 * or their own `session`.
 */
import "./elements/tool-card/define.js";

export * from "./elements/tool-card/define.js";
