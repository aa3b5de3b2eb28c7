/**
 * Records over `postMessage`: to and from a Window (an iframe's `contentWindow`, `parent`, `opener`), or an
 * endpoint that is already private to its two ends (a MessagePort, a Worker, a worker's own `self`, a
 * BroadcastChannel).
 *
 * Records travel in an envelope, `{ piElements: 1, channel, record }`, so the page's other postMessage traffic is
 * left alone (it is not even counted) and several transports can share one window by using different channels.
 *
 * Windows are the dangerous case: a window can be navigated to another site, and any page can post to any
 * window. So a Window target needs an explicit `targetOrigin` (where records may go) and `allowedOrigins` (whose
 * messages are accepted); there is no "*" default, and "*" is refused unless `dangerouslyAllowAnyOrigin: true`
 * says in code review that someone meant it. Incoming messages must also come from the target window itself
 * (`event.source`), so another frame of an allowed origin cannot speak for it. Rejected envelopes are counted
 * (`ignored`) and reported as `transport` diagnostics; envelopes for other channels are only counted.
 *
 * State: "open" from the start for every kind of target, meaning "records can be posted"; postMessage has no
 * handshake, so it never says whether the other side listens. `close()` detaches the listener and makes it
 * "closed"; it does not close the port, worker or channel, which belong to whoever created them.
 */
import { errorMessage } from "../diagnostics.js";
import { BaseTransport } from "./base.js";

/** What travels through postMessage. */
export interface PostMessageEnvelope {
  piElements: 1;
  channel: string;
  record: string;
}

/** A MessagePort, Worker, worker `self` or BroadcastChannel: posts without a target origin. */
export interface MessageEndpoint {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

export interface PostMessageCommonOptions {
  /** Envelope channel name; both ends must use the same one. Default "pi". */
  channel?: string;
}

export interface PostMessageWindowOptions extends PostMessageCommonOptions {
  target: Window;
  /** The origin the target window must have for a record to be delivered, e.g. "https://app.example", or "/". */
  targetOrigin: string;
  /** Exact origins whose messages are accepted, e.g. ["https://app.example"]. */
  allowedOrigins: readonly string[];
  /** The window that receives the target's messages. Default: this global (`window`). */
  receiver?: Window;
  /** Permits "*" as targetOrigin or in allowedOrigins. Any page could then read or forge records. */
  dangerouslyAllowAnyOrigin?: boolean;
}

export interface PostMessageEndpointOptions extends PostMessageCommonOptions {
  target: MessageEndpoint;
}

export type PostMessageTransportOptions = PostMessageWindowOptions | PostMessageEndpointOptions;

/** Envelopes this transport refused, by reason. */
export interface IgnoredMessageCounts {
  /** From an origin not in `allowedOrigins`. */
  origin: number;
  /** From an allowed origin but another window than the target. */
  source: number;
  /** For another channel (not an error: another transport's traffic). */
  channel: number;
  /** On this channel but with a `record` that is not a string. */
  malformed: number;
}

export const DEFAULT_POST_MESSAGE_CHANNEL = "pi";

export class PostMessageTransport extends BaseTransport {
  readonly channel: string;
  readonly #send: (envelope: PostMessageEnvelope) => void;
  readonly #detach: () => void;
  readonly #window: PostMessageWindowOptions | undefined;
  readonly #ignored: IgnoredMessageCounts = { origin: 0, source: 0, channel: 0, malformed: 0 };

  constructor(options: PostMessageTransportOptions) {
    super("open");
    const target = options?.target as unknown;
    if (
      target === null ||
      typeof target !== "object" ||
      typeof (target as MessageEndpoint).postMessage !== "function"
    ) {
      throw new TypeError("PostMessageTransport: `target` must be a Window, MessagePort, Worker or BroadcastChannel.");
    }
    this.channel = options.channel ?? DEFAULT_POST_MESSAGE_CHANNEL;
    const listener = (event: MessageEvent) => this.#receive(event);
    if (isWindow(target)) {
      const windowOptions = checkWindowOptions(options as PostMessageWindowOptions);
      this.#window = windowOptions;
      const receiver = windowOptions.receiver ?? (globalThis as unknown as Window);
      receiver.addEventListener("message", listener);
      this.#detach = () => receiver.removeEventListener("message", listener);
      this.#send = (envelope) => target.postMessage(envelope, windowOptions.targetOrigin);
    } else {
      const endpoint = target as MessageEndpoint;
      endpoint.addEventListener("message", listener);
      // A MessagePort delivers nothing to addEventListener listeners until started.
      (endpoint as { start?: () => void }).start?.();
      this.#detach = () => endpoint.removeEventListener("message", listener);
      this.#send = (envelope) => endpoint.postMessage(envelope);
    }
  }

  /** Envelopes refused so far, by reason (a copy). */
  get ignored(): IgnoredMessageCounts {
    return { ...this.#ignored };
  }

  send(record: string): void {
    if (this.state === "closed") {
      this.diagnose("Record dropped: the postMessage transport is closed.", record);
      return;
    }
    if (this.#window?.target.closed) {
      this.diagnose("Record dropped: the target window is closed.", record);
      return;
    }
    try {
      this.#send({ piElements: 1, channel: this.channel, record });
    } catch (error) {
      this.diagnose(`postMessage failed: ${errorMessage(error)}`, record);
    }
  }

  close(): void {
    if (this.state === "closed") return;
    this.#detach();
    this.setState("closed");
  }

  #receive(event: MessageEvent): void {
    const data: unknown = event.data;
    if (!isEnvelope(data)) return;
    if (data.channel !== this.channel) {
      this.#ignored.channel += 1;
      return;
    }
    const windowOptions = this.#window;
    if (windowOptions) {
      if (!originAllowed(event.origin, windowOptions)) {
        this.#ignored.origin += 1;
        this.diagnose(`Ignored a message from origin ${event.origin}, which is not in allowedOrigins.`);
        return;
      }
      if (event.source !== windowOptions.target) {
        this.#ignored.source += 1;
        this.diagnose(`Ignored a message from ${event.origin} that did not come from the target window.`);
        return;
      }
    }
    if (typeof data.record !== "string") {
      this.#ignored.malformed += 1;
      this.diagnose("Ignored an envelope whose record is not a string.");
      return;
    }
    this.emitRecord(data.record);
  }
}

function isWindow(target: unknown): target is Window {
  // `window` is one of the few properties readable on a cross-origin WindowProxy; instanceof is not reliable there.
  return (target as { window?: unknown }).window === target;
}

function isEnvelope(data: unknown): data is { piElements: 1; channel: string; record: unknown } {
  return (
    typeof data === "object" &&
    data !== null &&
    (data as { piElements?: unknown }).piElements === 1 &&
    typeof (data as { channel?: unknown }).channel === "string"
  );
}

function originAllowed(origin: string, options: PostMessageWindowOptions): boolean {
  return (
    options.allowedOrigins.includes(origin) ||
    (options.allowedOrigins.includes("*") && !!options.dangerouslyAllowAnyOrigin)
  );
}

function checkWindowOptions(options: PostMessageWindowOptions): PostMessageWindowOptions {
  const unsafe = options.dangerouslyAllowAnyOrigin === true;
  const { targetOrigin, allowedOrigins } = options;
  if (typeof targetOrigin !== "string" || targetOrigin === "") {
    throw new TypeError(
      'PostMessageTransport: a Window target needs an explicit `targetOrigin`, e.g. "https://app.example" (or "/" for this page\'s own origin). There is no "*" default.',
    );
  }
  if (targetOrigin === "*" && !unsafe) {
    throw new TypeError(
      'PostMessageTransport: targetOrigin "*" would hand every record to whatever page the window shows. Name the origin, or set `dangerouslyAllowAnyOrigin: true` if that is really intended.',
    );
  }
  if (targetOrigin !== "*" && targetOrigin !== "/" && !isOrigin(targetOrigin)) {
    throw new TypeError(
      `PostMessageTransport: targetOrigin ${JSON.stringify(targetOrigin)} is not an origin (scheme://host[:port], no path).`,
    );
  }
  if (!Array.isArray(allowedOrigins) || allowedOrigins.length === 0) {
    throw new TypeError(
      'PostMessageTransport: a Window target needs `allowedOrigins`, the exact origins whose messages are accepted, e.g. ["https://app.example"].',
    );
  }
  for (const origin of allowedOrigins) {
    if (origin === "*" && unsafe) continue;
    if (origin === "*") {
      throw new TypeError(
        'PostMessageTransport: allowedOrigins "*" would accept records forged by any page. List the origins, or set `dangerouslyAllowAnyOrigin: true` if that is really intended.',
      );
    }
    if (!isOrigin(origin)) {
      throw new TypeError(
        `PostMessageTransport: allowedOrigins entry ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path).`,
      );
    }
  }
  return { ...options, allowedOrigins: [...allowedOrigins] };
}

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}
