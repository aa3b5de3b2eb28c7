/**
 * Who may connect: the checks the bridge runs on every WebSocket upgrade (and, for the host check, on every
 * static-file request). Pure functions, so each rule is tested on its own.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { hostname, networkInterfaces } from "node:os";

/** 32 random bytes (256 bits) as base64url: well over the 128 bits a guess must beat. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Compares a presented token with the expected one in constant time. Both sides are hashed first so that their
 * lengths, which `timingSafeEqual` requires to be equal, reveal nothing either.
 */
export function tokenMatches(presented: string | undefined | null, expected: string): boolean {
  if (typeof presented !== "string") return false;
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The token of an upgrade request: `?token=` in the URL (browsers cannot set headers), or `Authorization: Bearer`. */
export function presentedToken(url: URL, authorization: string | undefined): string | undefined {
  const fromQuery = url.searchParams.get("token");
  if (fromQuery !== null) return fromQuery;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

/**
 * Every value of the cookie `name` in a `Cookie` header, in the order sent. A browser sends one per matching path
 * and domain, the longest path first, so any script on any 127.0.0.1 port (cookies ignore ports) can put one of
 * the same name in front of the bridge's: a check must look at all of them, not the first.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const pair of (header ?? "").split(";")) {
    const equals = pair.indexOf("=");
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    values.push(pair.slice(equals + 1).trim());
  }
  return values;
}

/**
 * Parses an `--allow-host` value: a bare host name (`box`, `box.example.com`), an IPv4 address, or an IPv6
 * address (with or without brackets); returned as a URL hostname (lower case, IPv6 bracketed). Throws with a
 * message for anything else: a scheme (`http://box` would otherwise allow the host `http`), a port, a path, a
 * wildcard, white space.
 */
export function parseHostName(text: string): string {
  const bare = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (isIP(bare) === 6) return `[${new URL(`http://[${bare}]`).hostname.slice(1, -1)}]`;
  // Letters, digits, hyphens; underscores too, which some machines' names have and browsers accept.
  const label = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/i;
  if (bare === text && isIP(text) === 4) return text;
  const name = text.toLowerCase();
  // A URL reads all-numeric names as IPv4 shorthand (`1.2.3`, `010.0.0.1`): such a name would never match a Host.
  if (name.length <= 253 && name.split(".").every((part) => label.test(part)) && urlHostname(name) === name) {
    return name;
  }
  throw new Error(
    `Not a host name: ${JSON.stringify(text)} (a bare name or address such as box.example.com or 192.168.1.5; no scheme, port or path)`,
  );
}

/**
 * The origins of the bridge's own pages: `http://NAME:PORT` and `https://NAME:PORT` for every name a Host header
 * may give (`boundHostNames`). A page the bridge serves at `http://box:8787/` (under `--allow-host box`) opens its
 * socket with that Origin; the loopback ones are allowed on any port already (`DEFAULT_ALLOWED_ORIGINS`).
 */
export function ownOriginRules(names: ReadonlySet<string>, port: number): OriginRule[] {
  return [...names].flatMap((name) =>
    ["http", "https"].map((scheme) => ({
      kind: "exact" as const,
      origin: new URL(`${scheme}://${name}:${port}`).origin,
    })),
  );
}

/** 127.0.0.0/8, ::1, ::ffff:127.x and the name localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === "localhost") return true;
  const version = isIP(bare);
  if (version === 4) return bare.startsWith("127.");
  if (version === 6) {
    const lower = bare.toLowerCase();
    return lower === "::1" || lower === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(lower);
  }
  return false;
}

/**
 * An allowed origin: an exact origin (`https://app.example.com`), an origin with any port
 * (`http://localhost:*`), or the literal `null` (pages from file: URLs and sandboxed frames send `Origin: null`).
 */
export type OriginRule = { kind: "exact"; origin: string } | { kind: "any-port"; prefix: string } | { kind: "null" };

/** The loopback origins a page served from this machine has, on any port, over http or https. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = [
  "http://127.0.0.1:*",
  "http://localhost:*",
  "http://[::1]:*",
  "https://127.0.0.1:*",
  "https://localhost:*",
  "https://[::1]:*",
];

/** Parses an `--allow-origin` value; throws with a message for anything that is not an origin. */
export function parseOriginRule(text: string): OriginRule {
  if (text === "null") return { kind: "null" };
  if (text.endsWith(":*")) {
    const base = text.slice(0, -2);
    const origin = originOf(base);
    if (origin === undefined || origin !== base.toLowerCase() || new URL(base).port !== "") {
      throw new Error(`Not an origin with a port wildcard: ${JSON.stringify(text)} (e.g. http://localhost:*)`);
    }
    return { kind: "any-port", prefix: origin };
  }
  const origin = originOf(text);
  if (origin === undefined || origin !== text.replace(/\/$/, "").toLowerCase()) {
    throw new Error(`Not an origin: ${JSON.stringify(text)} (scheme://host[:port], no path)`);
  }
  return { kind: "exact", origin };
}

function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request's Origin header passes. No header at all means a non-browser client (browsers always send
 * Origin on a WebSocket handshake); those are allowed, and still need the token.
 */
export function originAllowed(origin: string | undefined, rules: readonly OriginRule[]): boolean {
  if (origin === undefined) return true;
  if (origin === "null") return rules.some((rule) => rule.kind === "null");
  const normalized = originOf(origin);
  if (normalized === undefined || normalized !== origin.toLowerCase()) return false;
  const url = new URL(normalized);
  const withoutPort = `${url.protocol}//${url.hostname}`;
  return rules.some((rule) => {
    if (rule.kind === "exact") return rule.origin === normalized;
    if (rule.kind === "any-port") return rule.prefix === withoutPort;
    return false;
  });
}

/**
 * Whether a Host header names this machine: a loopback name, or one of `names` (lower case; IPv6 addresses in
 * brackets, as URL hostnames are). A bridge answers only requests addressed to a name it is bound to: a
 * DNS-rebinding page (evil.example resolving to 127.0.0.1) sends `Host: evil.example`.
 */
export function hostHeaderAllowed(hostHeader: string | undefined, names: ReadonlySet<string> = NO_NAMES): boolean {
  if (hostHeader === undefined) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(hostname) || names.has(hostname);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a Host header may give for a bridge bound to `host` (besides the loopback ones): `host` itself, or for
 * a wildcard address (0.0.0.0, ::) every address of the machine's interfaces and its host name; plus `extra`
 * (`--allow-host`, each checked by `parseHostName`, which throws for what is not a host name). In the form a URL's
 * hostname has, so that `hostHeaderAllowed` compares like with like.
 */
export function boundHostNames(host: string, extra: readonly string[] = []): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => {
    const hostname = urlHostname(name);
    if (hostname !== undefined) names.add(hostname);
  };
  if (host === "0.0.0.0" || host === "::" || host === "[::]") {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) add(address.address);
    }
    add(hostname());
  } else {
    add(host);
  }
  for (const name of extra) names.add(parseHostName(name));
  return names;
}

function urlHostname(name: string): string | undefined {
  const bracketed = isIP(name) === 6 ? `[${name}]` : name;
  try {
    return new URL(`http://${bracketed}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The URL of a request, parsed against a placeholder origin, or undefined when it cannot be parsed: a browser
 * sends what a page asks for (`GET //?x`, `//[/`, `//%zz/`), so this must never throw.
 */
export function requestUrl(target: string | undefined): URL | undefined {
  if (target === undefined || !target.startsWith("/") || target.startsWith("//")) return undefined;
  try {
    return new URL(target, "http://bridge.invalid");
  } catch {
    return undefined;
  }
}
