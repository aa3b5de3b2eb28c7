/**
 * Serves one folder over plain HTTP on the bridge's port, so one command serves a page and its agent. Read-only:
 * GET and HEAD; nothing outside the folder is reachable (no `..`, no encoded separators, no symlink leading out),
 * and nothing hidden inside it: no segment may start with a dot (`/.env`, `/.git/config`). Every answer carries
 * `PAGE_HEADERS`.
 */
import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".wasm": "application/wasm",
};

/**
 * The headers of every static answer (and of the bridge's plain-text ones). A page on another port of the same
 * host is another origin but the same site, so the browser sends it the static cookie: these keep it from using
 * the bridge's files. `Cross-Origin-Resource-Policy: same-origin`: no other origin may load them as scripts,
 * styles or images. `frame-ancestors 'self'` and `X-Frame-Options: SAMEORIGIN` (for browsers without CSP 2):
 * only the bridge's own pages may frame its page (no clickjacking; a frame would also share the tab's
 * sessionStorage, where the page keeps its token). `Referrer-Policy: no-referrer`: a link the page follows
 * carries no address of the page. `nosniff`: a file is only what its Content-Type says.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Content-Security-Policy": "frame-ancestors 'self'",
  "X-Frame-Options": "SAMEORIGIN",
  "Referrer-Policy": "no-referrer",
};

/** Returns a request handler for `root`, which must exist. */
export async function staticFileHandler(
  root: string,
): Promise<(request: IncomingMessage, response: ServerResponse) => void> {
  const realRoot = await realpath(root);
  return (request, response) => {
    serve(realRoot, request, response).catch(() => {
      if (!response.headersSent) send(response, 500, "Internal error");
      else response.destroy();
    });
  };
}

/** The file a URL path names inside `root`, or undefined when it names something outside or is malformed. */
export function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  // Backslashes and NUL have no business in a URL path; `..` segments are refused rather than normalized away, and
  // so are dotfiles and dot-folders, which hold secrets far more often than pages.
  if (decoded.includes("\0") || decoded.includes("\\")) return undefined;
  const segments = decoded.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.some((segment) => segment.startsWith("."))) return undefined;
  return join(root, ...segments);
}

async function serve(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    send(response, 405, "Method not allowed");
    return;
  }
  const path = new URL(request.url ?? "/", "http://bridge.invalid").pathname;
  let file = resolveInside(root, path);
  if (file === undefined) {
    send(response, 400, "Bad path");
    return;
  }
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    file = join(file, "index.html");
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) {
    send(response, 404, "Not found");
    return;
  }
  // A symlink inside the folder may point anywhere: serve only what really lives under the root.
  const real = await realpath(file);
  if (real !== root && !real.startsWith(root + sep)) {
    send(response, 404, "Not found");
    return;
  }
  response.writeHead(200, {
    "Content-Type": CONTENT_TYPES[extname(real).toLowerCase()] ?? "application/octet-stream",
    "Content-Length": info.size,
    "Cache-Control": "no-cache",
    ...PAGE_HEADERS,
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  createReadStream(real)
    .on("error", () => response.destroy())
    .pipe(response);
}

export function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    "Content-Type": "text/plain; charset=utf-8",
    ...PAGE_HEADERS,
  });
  response.end(`${text}\n`);
}
