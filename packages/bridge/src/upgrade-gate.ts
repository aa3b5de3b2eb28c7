/**
 * Who may connect, as decided on each request: the Host header (against DNS rebinding), the path, the Origin
 * (against other web pages), the token, and the client limit. The token of a WebSocket upgrade comes in the
 * `?token=` query, an `Authorization: Bearer` header or, from the core's WebSocketTransport (the default there),
 * the `pi-elements.token.…` subprotocol, which keeps it out of URLs (see core's bridge-token.ts); the answer
 * names `pi-elements.v1`, never the token's protocol. No token is ever logged. A token refused (wrong, stale or missing)
 * is answered by completing the handshake and closing at once with TOKEN_REFUSED_CLOSE_CODE (4401), so that a page
 * can tell it from a network failure and stop retrying; nothing is sent before the close. Other refusals are answered with a plain HTTP status and
 * `Connection: close`, the socket then let go at once (see raw-answer.ts), and logged, at most 20 a minute (a
 * hostile page can cause any number of them). A wrong token is answered in its turn (see failure-pacer.ts). The
 * rules themselves are the pure functions of security.ts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import {
  type Clock,
  PI_ELEMENTS_PROTOCOL,
  protocolToken,
  realClock,
  TOKEN_PROTOCOL_PREFIX,
  TOKEN_REFUSED_CLOSE_CODE,
} from "@pi-elements/core";
import { FailurePacer, type FailurePacerOptions } from "./failure-pacer.js";
import { answerAndClose } from "./raw-answer.js";
import {
  cookieValues,
  generateToken,
  hostHeaderAllowed,
  type OriginRule,
  originAllowed,
  presentedToken,
  requestUrl,
  tokenMatches,
} from "./security.js";

export interface UpgradeGateOptions {
  /** The token clients must present; undefined: none. */
  token: string | undefined;
  /** The names the Host header may give besides the loopback ones (see `boundHostNames`). */
  hostNames: ReadonlySet<string>;
  originRules: readonly OriginRule[];
  /** Most clients at once, handshakes under way included. */
  maxClients: number;
  /** How wrong tokens are slowed down. Default: one answered per 250 ms, at most 32 waiting, on `clock`. */
  tokenFailures?: FailurePacerOptions;
  /** What the pacing, the refusal bound and the refusal log's minute run on. Default: real time. */
  clock?: Clock;
  /** Longest a refused socket is kept for its answer to be written (a peer may read nothing). Default 1000. */
  flushTimeoutMs?: number;
  log: (line: string) => void;
}

export interface Refusal {
  status: number;
  text: string;
  /** A wrong token was presented: the answer waits for its turn. */
  paced?: boolean;
  /**
   * Answered by completing the handshake and closing the WebSocket with this code and `text` as its reason, not with
   * an HTTP status: a page sees a refused handshake only as a bare 1006, the same as a network failure, and would
   * retry for ever. The token refusal (core's TOKEN_REFUSED_CLOSE_CODE) is answered so; nothing is sent before the close.
   */
  closeCode?: number;
}

/** A token refused (wrong, stale, or none): the page is told in the close, and stops retrying. */
export const TOKEN_REFUSED: Omit<Refusal, "paced"> = {
  status: 401,
  text: "token refused: open the address pi-bridge printed",
  closeCode: TOKEN_REFUSED_CLOSE_CODE,
};

/** One guess per 250 ms: 4 a second, 14,400 an hour; 32 waiting (8 s of turns, under the 10 s handshake deadline). */
export const DEFAULT_TOKEN_FAILURES: FailurePacerOptions = { intervalMs: 250, maxWaiting: 32 };
export const TOO_MANY_FAILURES: Refusal = { status: 429, text: "Too Many Requests" };

export class UpgradeGate {
  readonly #options: UpgradeGateOptions;
  readonly #refusalLog: (line: string) => void;
  readonly #failures: FailurePacer;
  readonly #clock: Clock;
  /** What the static cookie holds: admits static GET and HEAD, never a WebSocket (see `staticAllowed`). */
  readonly #staticSecret = generateToken();

  constructor(options: UpgradeGateOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#refusalLog = rateLimitedLog(options.log, 20, 60_000, this.#clock);
    this.#failures = new FailurePacer({ clock: this.#clock, ...(options.tokenFailures ?? DEFAULT_TOKEN_FAILURES) });
  }

  /** Why a WebSocket upgrade is refused, or undefined to let it through; `connections`: clients and handshakes. */
  check(request: IncomingMessage, connections: number): Refusal | undefined {
    const { token, hostNames, originRules, maxClients } = this.#options;
    if (!hostHeaderAllowed(request.headers.host, hostNames)) return { status: 421, text: "Misdirected Request" };
    const url = requestUrl(request.url);
    if (url === undefined) return { status: 400, text: "Bad Request" };
    if (url.pathname !== "/") return { status: 404, text: "Not Found" };
    if (!originAllowed(request.headers.origin, originRules)) return { status: 403, text: "Forbidden" };
    if (token !== undefined) {
      const presented =
        presentedToken(url, request.headers.authorization) ?? protocolToken(request.headers["sec-websocket-protocol"]);
      // No token at all is no guess: answered at once. A guess is not even judged while too many wait.
      if (presented !== undefined && this.#failures.full) return TOO_MANY_FAILURES;
      if (!tokenMatches(presented, token)) return { ...TOKEN_REFUSED, paced: presented !== undefined };
    }
    if (connections >= maxClients) return { status: 503, text: "Too Many Clients" };
    return undefined;
  }

  /**
   * The subprotocol to answer an admitted handshake with (ws's `handleProtocols`): `pi-elements.v1` when offered,
   * else the first other one that carries no token, else none.
   */
  protocol(offered: ReadonlySet<string>): string | false {
    if (offered.has(PI_ELEMENTS_PROTOCOL)) return PI_ELEMENTS_PROTOCOL;
    for (const protocol of offered) if (!protocol.startsWith(TOKEN_PROTOCOL_PREFIX)) return protocol;
    return false;
  }

  /**
   * Answers a refused upgrade on its raw socket (a wrong token in its turn), closes it, and logs it. The socket is
   * destroyed once the answer is written, whether or not the peer ever closes its side. A refusal with a `closeCode`
   * is answered by `closeAfterHandshake(code, reason)` instead (the client hub's), when given.
   */
  refuse(
    request: IncomingMessage,
    socket: Duplex,
    refusal: Refusal,
    closeAfterHandshake?: (code: number, reason: string) => void,
  ): void {
    const from = request.socket.remoteAddress ?? "?";
    const origin = request.headers.origin === undefined ? "" : `, Origin ${JSON.stringify(request.headers.origin)}`;
    this.#refusalLog(`[pi-bridge] refused a connection from ${from}: ${refusal.status} ${refusal.text}${origin}`);
    const { status, text } = refusal;
    const raw = () =>
      answerAndClose(
        socket,
        `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\n\r\n${text}\n`,
        this.#options.flushTimeoutMs ?? 1000,
        this.#clock,
      );
    const { closeCode } = refusal;
    const answer =
      closeCode !== undefined && closeAfterHandshake ? () => closeAfterHandshake(closeCode, refusal.text) : raw;
    if (refusal.paced) this.#failures.delay(answer);
    else answer();
  }

  /** Whether wrong tokens are waiting in such numbers that no further one may be judged now (answer 429). */
  get tooManyFailures(): boolean {
    return this.#failures.full;
  }

  /** Runs the answer to a failed token attempt (an HTTP 401) in its turn. */
  answerFailure(answer: () => void): void {
    this.#failures.delay(answer);
  }

  /** Gives the answers still waiting for their turn at once (the bridge is closing). */
  dispose(): void {
    this.#failures.dispose();
  }

  /** Whether an HTTP request's Host header names this machine; a refusal is logged. */
  hostAllowed(request: IncomingMessage): boolean {
    if (hostHeaderAllowed(request.headers.host, this.#options.hostNames)) return true;
    this.#refusalLog(`[pi-bridge] refused an HTTP request: 421 (Host ${JSON.stringify(request.headers.host)})`);
    return false;
  }

  /**
   * Whether a static-file request may be served: it carries the token (`?token=`, the printed URL, or
   * `Authorization: Bearer`), or the static cookie that the first of those sets, so that the page's own scripts
   * and styles (requested without the query) load too. The cookie (`pi-bridge-PORT`, HttpOnly, SameSite=Strict)
   * holds `#staticSecret`, a random value of this bridge run, never the token: browsers send a 127.0.0.1 cookie
   * to every port of 127.0.0.1, so any local server a user visits receives it, and it must not open the socket
   * (`check` never reads cookies, and the secret is not the token). All cookies of that name count, not only the
   * first (a longer-path one set from another port comes first). A refusal is logged.
   */
  staticAllowed(request: IncomingMessage, response: ServerResponse, url: URL): boolean {
    const { token } = this.#options;
    if (token === undefined) return true;
    const name = `pi-bridge-${request.socket.localPort}`;
    const explicit = presentedToken(url, request.headers.authorization);
    if (explicit !== undefined && tokenMatches(explicit, token)) {
      response.setHeader("Set-Cookie", `${name}=${this.#staticSecret}; HttpOnly; SameSite=Strict; Path=/`);
      return true;
    }
    // A wrong explicit token is refused even beside a good cookie: a page with a stale ?token= should say so.
    if (explicit === undefined && this.#staticCookieAccepted(request, name)) return true;
    this.#refusalLog(`[pi-bridge] refused an HTTP request from ${request.socket.remoteAddress ?? "?"}: 401`);
    return false;
  }

  #staticCookieAccepted(request: IncomingMessage, name: string): boolean {
    return cookieValues(request.headers.cookie, name).some((value) => tokenMatches(value, this.#staticSecret));
  }
}

/** A log that writes at most `max` lines per `windowMs` (on `clock`), then says how many it left out. */
export function rateLimitedLog(
  log: (line: string) => void,
  max: number,
  windowMs: number,
  clock: Clock = realClock,
): (line: string) => void {
  let windowStart = Number.NEGATIVE_INFINITY;
  let written = 0;
  let skipped = 0;
  return (line) => {
    const now = clock.now();
    if (now - windowStart >= windowMs) {
      if (skipped > 0) log(`[pi-bridge] (${skipped} more refusals not logged)`);
      windowStart = now;
      written = 0;
      skipped = 0;
    }
    if (written < max) {
      written++;
      log(line);
    } else {
      skipped++;
    }
  };
}
