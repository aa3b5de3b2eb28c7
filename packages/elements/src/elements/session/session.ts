import { ContextProvider } from "@lit/context";
import { PiSession, WebSocketTransport } from "@pi-elements/core";
import { css, html, LitElement } from "lit";
import { sessionContext } from "../../context.js";
import { emit } from "../../internal/events.js";
import { takePageToken } from "./page-token.js";

/** Detail of `pi-session-change`. */
export interface SessionChangeDetail {
  session: PiSession | undefined;
}

/**
 * Declarative wiring for plain HTML: `<pi-session url="ws://127.0.0.1:8787/?token=…">` connects to a pi-elements
 * bridge over a WebSocket and gives the session to every pi-* descendant (through @lit/context). On a page the
 * bridge serves itself (`pi-bridge --static DIR`, opened at the `http://…/?token=…` address it prints),
 * `<pi-session url="/">` connects back to that bridge with the page's token, which it then removes from the page's
 * address and keeps in `sessionStorage` for reloads (page-token.ts). The token is taken out of the URL and
 * sent in the `Sec-WebSocket-Protocol` header, so it is in no request URL or server log; to keep it out of the DOM
 * too, set the `token` property instead. For any other transport, set the `session` property to a `PiSession` you
 * made; it takes precedence over `url`.
 *
 * A session made from `url` belongs to this element: it is closed when the element leaves the document or the
 * url changes. A session given through the property belongs to the page and is never closed here.
 *
 * @slot - The pi-* elements (and anything else) that share this session.
 * @event pi-session-change - The session changed (made, replaced or closed). `detail: { session: PiSession | undefined }`.
 */
export class PiSessionElement extends LitElement {
  static override styles = css`
    :host {
      display: contents;
    }
  `;

  static override properties = {
    url: { type: String },
    framing: { type: String },
    token: { attribute: false },
  };

  /**
   * WebSocket URL of a pi-elements bridge, with its `?token=` (sent in a header, not in the URL) unless `token` is
   * set. A relative URL, such as `"/"`, is resolved against the page's base URL (`http:` becomes `ws:`, `https:`
   * becomes `wss:`); when it then points at the page's own origin and has no `token`, the page's own `?token=` is
   * added, so the page the bridge serves needs no editing; the page's address then loses its `?token=` (other
   * parameters and the hash stay), and the token is kept in `sessionStorage`, so a reload connects again. A token
   * is never carried to another origin.
   * @default undefined
   */
  declare url: string | undefined;
  /**
   * The bridge's token, as a property only (no attribute, so it is not in the DOM); takes precedence over the
   * URL's `?token=`.
   * @default undefined
   */
  declare token: string | undefined;
  /**
   * How WebSocket frames carry records: `"jsonl"` (default; what the pi-elements bridge speaks: raw JSONL chunks,
   * which also accepts one record per frame) or `"record"` (exactly one record per frame, no line feeds).
   */
  declare framing: "jsonl" | "record";

  readonly #provider = new ContextProvider(this, { context: sessionContext });
  #given: PiSession | undefined;
  #owned: PiSession | undefined;
  /** The url, framing and token `#owned` was made with. */
  #ownedFrom = "";

  constructor() {
    super();
    this.framing = "jsonl";
  }

  /** The session in use: the one set through this property, else the one made from `url`. */
  get session(): PiSession | undefined {
    return this.#given ?? this.#owned;
  }

  set session(session: PiSession | undefined) {
    const before = this.session;
    this.#given = session;
    this.#publish(before);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#openFromUrl();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A move within the document disconnects and reconnects in one task: keep the connection through it.
    queueMicrotask(() => {
      if (!this.isConnected) this.#closeOwned();
    });
  }

  /** A new url, framing or token replaces the owned session (they are this element's only properties). */
  protected override willUpdate(): void {
    if (this.isConnected && this.#from() !== this.#ownedFrom) {
      this.#closeOwned();
      this.#openFromUrl();
    }
  }

  protected override render() {
    return html`<slot></slot>`;
  }

  #openFromUrl(): void {
    if (this.#owned || !this.url) return;
    const before = this.session;
    const token = this.token === undefined ? {} : { token: this.token };
    this.#owned = new PiSession(new WebSocketTransport(socketUrl(this.url), { framing: this.#framing(), ...token }));
    this.#ownedFrom = this.#from();
    this.#publish(before);
  }

  #framing(): "jsonl" | "record" {
    return this.framing === "record" ? "record" : "jsonl";
  }

  #from(): string {
    return `${this.#framing()} ${this.url ?? ""} ${this.token ?? ""}`;
  }

  #closeOwned(): void {
    const owned = this.#owned;
    this.#ownedFrom = "";
    if (!owned) return;
    const before = this.session;
    this.#owned = undefined;
    owned.close();
    this.#publish(before);
  }

  #publish(before: PiSession | undefined): void {
    const session = this.session;
    if (session === before) return;
    this.#provider.setValue(session);
    emit(this, "pi-session-change", { session });
  }
}

/**
 * `url` as given when it is absolute; a relative one resolved against the page, with a WebSocket scheme, and with
 * the page's token (see page-token.ts) when it leads back to the page's origin (the bridge that served the page).
 */
function socketUrl(url: string): string {
  if (URL.canParse(url)) return url;
  const resolved = new URL(url, document.baseURI);
  if (resolved.protocol === "http:") resolved.protocol = "ws:";
  else if (resolved.protocol === "https:") resolved.protocol = "wss:";
  const pageSocketOrigin = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}`;
  if (resolved.origin === pageSocketOrigin && !resolved.searchParams.has("token")) {
    const token = takePageToken();
    if (token !== undefined) resolved.searchParams.set("token", token);
  }
  return resolved.href;
}
