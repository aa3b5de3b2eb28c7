/**
 * A WebSocket that stays connected: it reconnects with exponential backoff and jitter (see `backoff.ts`), queues
 * records sent while it is down (bounded; the oldest goes first, with a diagnostic) and sends them in order as
 * soon as it is open again. Records sent while open but lost with the connection cannot be known (WebSocket has
 * no acknowledgements); a bridge that replays state on connect covers that.
 *
 * Framing: by default (`framing: "jsonl"`, what the pi-elements bridge speaks) frames are raw chunks of a JSONL
 * stream (a bridge that pipes pi's stdout straight through): several records per frame, or one record across
 * frames, decoded by the strict `JsonlDecoder`; outgoing records are one LF-terminated line per frame. With
 * `framing: "record"` one text frame carries exactly one record (a trailing LF is tolerated and stripped).
 *
 * States: "connecting" (first attempt) → "open" → "reconnecting" (down, or retrying) → "open" → ... →
 * "closed", which is final and reached by `close()`, by running out of `reconnect.maxAttempts`, or when the server
 * refuses this client for good (`shouldReconnect`; by default a pi-elements bridge's token refusal): `end` says which.
 * Node 20 has no global WebSocket: pass `ws`'s (`{ WebSocket }` from "ws") as the `WebSocket` option.
 */
import { JsonlDecoder } from "../codec/jsonl.js";
import { errorMessage } from "../diagnostics.js";
import { type Clock, realClock } from "../session/clock.js";
import { Backoff, type BackoffOptions } from "./backoff.js";
import { BaseTransport } from "./base.js";
import { PI_ELEMENTS_PROTOCOL, TOKEN_REFUSED_CLOSE_CODE, tokenProtocol, withoutUrlToken } from "./bridge-token.js";
import { CLOSED_END } from "./end.js";
import { RecordQueue } from "./record-queue.js";
import type { TransportEnd } from "./transport.js";

export { Backoff, type BackoffOptions } from "./backoff.js";

/** The part of the WebSocket API this transport uses; the browser's and `ws`'s both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // biome-ignore lint/suspicious/noExplicitAny: the browser's and ws's event types differ; only `data` is read.
  addEventListener(type: "open" | "close" | "error" | "message", listener: (event: any) => void): void;
}

/** How a connection ended: the close event's code and reason, and whether it had opened at all. */
export interface WebSocketCloseInfo {
  code: number;
  reason: string;
  wasOpen: boolean;
}

export type WebSocketConstructorLike = new (url: string, protocols?: string | string[]) => WebSocketLike;

/**
 * @deprecated The shape of the old `timers` option; pass a `Clock` as `clock` instead (a `TimerClock` without `now`
 * reads the time from `Date.now()`).
 */
export interface TimerClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds, for `reconnect.resetAfter`. Default `Date.now()`. */
  now?(): number;
}

export interface WebSocketTransportOptions {
  /** The WebSocket class. Default: `globalThis.WebSocket` (browsers, Node 22+). */
  WebSocket?: WebSocketConstructorLike;
  protocols?: string | string[];
  /**
   * A pi-elements bridge's token. It is sent as a subprotocol (`pi-elements.v1`, then `pi-elements.token.…`,
   * before any `protocols`), in the `Sec-WebSocket-Protocol` header, never in the URL, so no server or proxy log
   * records it. Default: the URL's `?token=`, which is then taken out of the URL.
   */
  token?: string;
  /**
   * "jsonl" (default; what the pi-elements bridge speaks): frames carry raw JSONL chunks. "record": one record per
   * text frame, for a server that sends each record as its own frame without a line feed.
   */
  framing?: "record" | "jsonl";
  /** Backoff settings, or `false` to close for good on the first lost connection. */
  reconnect?: BackoffOptions | false;
  /**
   * Asked on every lost connection whether to try again. A server that closes with, say, an "unauthorized" code is
   * not going to change its mind; returning false closes the transport with a diagnostic, its `end` "refused".
   * Default: always, but after a pi-elements bridge refused the token (close code `TOKEN_REFUSED_CLOSE_CODE`).
   */
  shouldReconnect?: (close: WebSocketCloseInfo) => boolean;
  /** Records kept while not open; beyond it the oldest is dropped with a diagnostic. Default 1000. */
  maxQueue?: number;
  /** Largest incoming frame (UTF-16 code units for text, bytes for binary); bigger ones are dropped. Default 8 MiB. */
  maxFrameLength?: number;
  /** Longest record in "jsonl" framing. Default: the decoder's 8 MiB. */
  maxLineLength?: number;
  /** Time for the reconnect delays and `reconnect.resetAfter`; the session's clock, or a test's. Default: real time. */
  clock?: Clock;
  /** @deprecated The old name of `clock` (its `now` optional); `clock` wins when both are given. */
  timers?: TimerClock;
  /** For the jitter; returns [0, 1). Default Math.random. */
  random?: () => number;
}

const OPEN = 1;
export const DEFAULT_MAX_FRAME_LENGTH = 8 * 1024 * 1024;

export class WebSocketTransport extends BaseTransport {
  /** The URL connected to: the one given, without its `?token=` (see the `token` option). */
  readonly url: string;
  /** The URL as given, its token replaced by "…", for diagnostics. */
  readonly #shownUrl: string;
  readonly #WebSocket: WebSocketConstructorLike;
  readonly #protocols: string | string[] | undefined;
  readonly #jsonl: boolean;
  readonly #backoff: Backoff | undefined;
  readonly #queue: RecordQueue;
  readonly #maxFrameLength: number;
  readonly #maxLineLength: number | undefined;
  readonly #clock: Clock;
  readonly #shouldReconnect: (close: WebSocketCloseInfo) => boolean;
  #socket: WebSocketLike | undefined;
  #decoder: JsonlDecoder | undefined;
  /** After a dropped jsonl frame: discard input up to the next LF, since the line it cut is broken. */
  #resyncing = false;
  #timer: unknown;

  constructor(url: string | URL, options: WebSocketTransportOptions = {}) {
    super("connecting");
    const WebSocketClass = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructorLike }).WebSocket;
    if (!WebSocketClass) {
      throw new TypeError(
        'WebSocketTransport: no global WebSocket here (Node 20?). Pass one: { WebSocket } from the "ws" package.',
      );
    }
    const split = withoutUrlToken(String(url), options.token);
    this.url = split.url;
    this.#shownUrl = redactToken(String(url));
    this.#WebSocket = WebSocketClass;
    this.#protocols = withTokenProtocol(options.protocols, split.token);
    this.#jsonl = options.framing !== "record";
    this.#backoff = options.reconnect === false ? undefined : new Backoff(options.reconnect, options.random);
    this.#queue = new RecordQueue(options.maxQueue);
    this.#maxFrameLength = options.maxFrameLength ?? DEFAULT_MAX_FRAME_LENGTH;
    this.#maxLineLength = options.maxLineLength;
    this.#clock = options.clock ?? clockOf(options.timers);
    this.#shouldReconnect = options.shouldReconnect ?? ((close) => close.code !== TOKEN_REFUSED_CLOSE_CODE);
    // A malformed URL throws here, from the constructor, as the platform's WebSocket does.
    this.#connect();
  }

  /** Records waiting for the connection to (re)open. */
  get queued(): number {
    return this.#queue.size;
  }

  send(record: string): void {
    if (this.state === "closed") {
      this.diagnose("Record dropped: the WebSocket transport is closed.", record);
      return;
    }
    if (this.#jsonl && record.includes("\n")) {
      this.diagnose("Record dropped: it contains a line feed, which would split it in two JSONL lines.", record);
      return;
    }
    const socket = this.#socket;
    if (this.state === "open" && socket?.readyState === OPEN) {
      socket.send(this.#frame(record));
      return;
    }
    const dropped = this.#queue.push(record);
    if (dropped !== undefined) this.diagnose("Send queue full while disconnected: dropped the oldest record.", dropped);
  }

  /** Final: stops any retry, closes the socket, drops what is still queued (with a diagnostic). Idempotent. */
  close(): void {
    if (this.state === "closed") return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const socket = this.#socket;
    this.#socket = undefined;
    socket?.close(1000, "closed by client");
    this.#giveUp(CLOSED_END);
  }

  #connect(): void {
    const socket = new this.#WebSocket(this.url, this.#protocols);
    socket.binaryType = "arraybuffer";
    this.#socket = socket;
    // A partial line from a dead connection must not be glued to the next connection's first line.
    this.#decoder = this.#jsonl ? this.#newDecoder() : undefined;
    this.#resyncing = false;
    // Listeners stay attached for the socket's life and ignore it once it is no longer current; the error
    // listener also keeps `ws` from treating an aborted handshake as an unhandled error.
    socket.addEventListener("error", () => {});
    let wasOpen = false;
    socket.addEventListener("open", () => {
      wasOpen = true;
      if (socket === this.#socket) this.#opened(socket);
    });
    socket.addEventListener("message", (event: { data: unknown }) => {
      if (socket === this.#socket) this.#receive(event.data);
    });
    socket.addEventListener("close", (event: { code?: number; reason?: string }) => {
      if (socket !== this.#socket) return;
      this.#socket = undefined;
      this.#lost({ code: event.code ?? 1006, reason: event.reason ?? "", wasOpen });
    });
  }

  #opened(socket: WebSocketLike): void {
    this.#backoff?.started(this.#clock.now());
    // The queue goes first: a "state" listener that sends at "open" must come after what waited.
    for (const record of this.#queue.drain()) socket.send(this.#frame(record));
    this.setState("open");
  }

  #lost(close: WebSocketCloseInfo): void {
    const backoff = this.#backoff;
    const declined = backoff !== undefined && !this.#shouldReconnect(close);
    const delay = backoff === undefined || declined ? undefined : backoff.next(this.#clock.now());
    if (delay === undefined) {
      const stop = !backoff
        ? "reconnecting is disabled"
        : declined
          ? `shouldReconnect declined to retry (close code ${close.code})`
          : `gave up after ${backoff.attempts} reconnect attempts`;
      this.diagnose(`WebSocket ${this.#shownUrl} closed; ${stop}.`);
      this.#giveUp({ reason: declined ? "refused" : backoff ? "gave-up" : "closed", detail: close.reason });
      return;
    }
    this.setState("reconnecting");
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.state === "closed") return;
      try {
        this.#connect();
      } catch (error) {
        const message = errorMessage(error);
        this.diagnose(`Could not create a WebSocket: ${message}`);
        this.#lost({ code: 1006, reason: message, wasOpen: false });
      }
    }, delay);
  }

  #giveUp(end: TransportEnd): void {
    const left = this.#queue.drain();
    if (left.length > 0) this.diagnose(`${left.length} queued record(s) dropped: the transport closed.`, left[0]);
    this.setState("closed", end);
  }

  #receive(data: unknown): void {
    const frame = typeof data === "string" ? data : toBytes(data);
    if (frame === undefined) {
      this.diagnose("Ignored a WebSocket frame that is neither text nor binary.");
      return;
    }
    // UTF-16 code units of text, bytes of binary.
    if (frame.length > this.#maxFrameLength) {
      this.diagnose(`Dropped a ${frame.length}-unit WebSocket frame; the maximum is ${this.#maxFrameLength}.`);
      if (this.#jsonl) this.#resyncing = true;
      return;
    }
    if (this.#jsonl) this.#receiveChunk(frame);
    else this.#receiveRecord(typeof frame === "string" ? frame : new TextDecoder().decode(frame));
  }

  #receiveRecord(text: string): void {
    const record = text.replace(/\r?\n$/, "");
    if (record.length > 0) this.emitRecord(record);
  }

  #receiveChunk(chunk: string | Uint8Array): void {
    if (this.#resyncing) {
      const lf = typeof chunk === "string" ? chunk.indexOf("\n") : chunk.indexOf(0x0a);
      if (lf === -1) return;
      this.#resyncing = false;
      this.#decoder = this.#newDecoder();
      chunk = chunk.slice(lf + 1);
    }
    this.#decoder?.push(chunk);
  }

  #newDecoder(): JsonlDecoder {
    return new JsonlDecoder({
      maxLineLength: this.#maxLineLength,
      onRecord: (line) => this.emitRecord(line),
      onDiagnostic: (diagnostic) => this.emitDiagnostic(diagnostic),
    });
  }

  #frame(record: string): string {
    return this.#jsonl ? `${record}\n` : record;
  }
}

/** The deprecated `timers` option as a `Clock`. */
function clockOf(timers: TimerClock | undefined): Clock {
  if (timers === undefined) return realClock;
  return {
    now: () => timers.now?.() ?? Date.now(),
    setTimeout: (fn, ms) => timers.setTimeout(fn, ms),
    clearTimeout: (handle) => timers.clearTimeout(handle),
  };
}

/** The protocols to offer: with a token, the pi-elements ones first (the bridge answers with the first). */
function withTokenProtocol(protocols: string | string[] | undefined, token: string | undefined) {
  if (token === undefined) return protocols;
  const others = (typeof protocols === "string" ? [protocols] : (protocols ?? [])).filter(
    (protocol) => protocol !== PI_ELEMENTS_PROTOCOL,
  );
  return [PI_ELEMENTS_PROTOCOL, tokenProtocol(token), ...others];
}

function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

/** A URL as diagnostics may show it: a `token` query parameter's value is replaced, so logs never carry the secret. */
export function redactToken(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/([?&]token=)[^&#]*/gi, "$1…");
  }
  if (!parsed.searchParams.has("token")) return url;
  parsed.searchParams.set("token", "…");
  return parsed.toString();
}
