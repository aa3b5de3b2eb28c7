import type { TransportEnd } from "./transport.js";

/** The end of a transport that closed for no particular reason: `close()`, a stream that ended. */
export const CLOSED_END: TransportEnd = Object.freeze({ reason: "closed", detail: "" });
