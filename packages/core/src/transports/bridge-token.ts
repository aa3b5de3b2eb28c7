/**
 * The bridge token as a WebSocket subprotocol, so that it travels in the `Sec-WebSocket-Protocol` header instead
 * of the URL (as Kubernetes does for browsers, which cannot set other headers on a WebSocket): URLs end up in
 * server logs, proxies and browser history; that header does not. A client offers `pi-elements.v1` first and
 * `pi-elements.token.<token as base64url>` after it; the bridge answers with `pi-elements.v1` alone. The
 * encoding makes any token a valid header token (the bridge's own are base64url already).
 */

/** The protocol a pi-elements client offers first, and the one a bridge answers with. */
export const PI_ELEMENTS_PROTOCOL = "pi-elements.v1";

/**
 * The close code a pi-elements bridge ends a WebSocket with when it refuses the token (wrong, stale after the bridge
 * restarted with a new one, or missing): it completes the handshake only to say so, since a refused handshake reaches
 * a page as a bare 1006, the same as a network failure. Trying again cannot help, so the transport does not.
 */
export const TOKEN_REFUSED_CLOSE_CODE = 4401;

/** The start of the protocol that carries the token. */
export const TOKEN_PROTOCOL_PREFIX = "pi-elements.token.";

/** The subprotocol that carries `token`. */
export function tokenProtocol(token: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(token)) binary += String.fromCharCode(byte);
  return TOKEN_PROTOCOL_PREFIX + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The token of a `Sec-WebSocket-Protocol` header (its comma-separated protocols), or undefined when none of them
 * carries one or it is not valid base64url of UTF-8.
 */
export function protocolToken(header: string | undefined): string | undefined {
  for (const protocol of (header ?? "").split(",")) {
    const value = protocol.trim();
    if (!value.startsWith(TOKEN_PROTOCOL_PREFIX)) continue;
    const encoded = value.slice(TOKEN_PROTOCOL_PREFIX.length);
    if (!/^[A-Za-z0-9_-]*$/.test(encoded)) return undefined;
    try {
      const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
      const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Splits a bridge URL's `?token=` off: the URL without it, and the token (the `token` given instead, if any).
 * A URL that does not parse is returned as it is, for the WebSocket constructor to refuse.
 */
export function withoutUrlToken(url: string, token?: string): { url: string; token: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, token };
  }
  const fromUrl = parsed.searchParams.get("token");
  if (fromUrl === null) return { url, token };
  parsed.searchParams.delete("token");
  return { url: parsed.href, token: token ?? fromUrl };
}
