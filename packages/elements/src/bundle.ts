/**
 * Entry of the single-file bundle (`dist/pi-elements.bundle.js`) for a `<script type="module">` with no build step:
 * every element registered and exported, plus the core's session and transports so a page can wire its own.
 */

export {
  createMemoryPair,
  PiCommandError,
  PiSession,
  PiSessionClosedError,
  realClock,
  WebSocketTransport,
} from "@pi-elements/core";
export * from "./extension-ui.js";
