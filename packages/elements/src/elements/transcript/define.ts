// pi-transcript draws each message's text with pi-markdown (and its code with pi-code-block) and each tool call with
// pi-tool-card: registering it registers them, so a page that imports only this shows whole messages.
import "../markdown/define.js";
import "../tool-card/define.js";
import { PiTranscript, type TranscriptCopyDetail } from "./transcript.js";

export type { TranscriptStringKey, TranscriptStrings } from "./strings.js";
export type { TranscriptCopyDetail };
export { PiTranscript };

if (!customElements.get("pi-transcript")) customElements.define("pi-transcript", PiTranscript);

declare global {
  interface HTMLElementTagNameMap {
    "pi-transcript": PiTranscript;
  }
}
