// pi-markdown draws its code blocks as <pi-code-block>: defining one defines the other.
import "../code-block/define.js";
import { MARKDOWN_LIMITS, type MarkdownLimits } from "./block-lexer.js";
import { PiMarkdown } from "./markdown.js";

export { MARKDOWN_LIMITS, type MarkdownLimits, PiMarkdown };

if (!customElements.get("pi-markdown")) customElements.define("pi-markdown", PiMarkdown);

declare global {
  interface HTMLElementTagNameMap {
    "pi-markdown": PiMarkdown;
  }
}
