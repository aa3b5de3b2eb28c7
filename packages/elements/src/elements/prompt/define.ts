import {
  type ImageContent,
  PiPrompt,
  type PromptCommand,
  type PromptSendDetail,
  type PromptSendErrorDetail,
} from "./prompt.js";

export type { ImageContent, PromptCommand, PromptSendDetail, PromptSendErrorDetail };
export { PiPrompt };

if (!customElements.get("pi-prompt")) customElements.define("pi-prompt", PiPrompt);

declare global {
  interface HTMLElementTagNameMap {
    "pi-prompt": PiPrompt;
  }
  interface GlobalEventHandlersEventMap {
    "pi-send": CustomEvent<PromptSendDetail>;
    "pi-send-error": CustomEvent<PromptSendErrorDetail>;
    "pi-abort": CustomEvent<undefined>;
  }
}
