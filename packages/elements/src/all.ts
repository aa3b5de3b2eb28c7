/**
 * Registers every pi-* element of the package (each only if its tag is still free: the manifest,
 * custom-elements.json, lists them) and exports every class: the extension UI's (`extension-ui.js`), the
 * conversation's (`transcript.js`) and the session controls. For a page built with a bundler, which then shares one
 * Lit with the page; `dist/pi-elements.full.bundle.js` is the same set prebuilt for a page without one. The heavy
 * parts (the highlighter's languages, the word diff) still load only when first needed.
 */
import "./extension-ui.js";
import "./transcript.js";
import "./elements/model-picker/define.js";
import "./elements/session-actions/define.js";
import "./elements/session-stats/define.js";
import "./elements/thinking-level/define.js";

export * from "./index.js";
