import { PiMarkdown } from "./markdown.js";

export { PiMarkdown };

if (!customElements.get("pi-markdown")) customElements.define("pi-markdown", PiMarkdown);

declare global {
  interface HTMLElementTagNameMap {
    "pi-markdown": PiMarkdown;
  }
}
