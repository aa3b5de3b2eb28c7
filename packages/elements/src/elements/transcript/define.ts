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
