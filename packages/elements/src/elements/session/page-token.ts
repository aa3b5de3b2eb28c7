/**
 * The token of a page the bridge serves itself. The bridge prints `http://127.0.0.1:PORT/?token=…`; the page takes
 * the token out of its address once and keeps it in `sessionStorage`, which belongs to this origin (port included)
 * and this tab alone, unlike a cookie, which browsers send to every port of the host. `history.replaceState` then
 * removes the parameter (keeping the others and the hash), so the token is not left in the URL bar, the history or a
 * bookmark; a reload finds it in `sessionStorage`. Where storage is unavailable the address keeps it.
 */

/** The `sessionStorage` key of the page's token. */
export const PAGE_TOKEN_KEY = "pi-elements.bridge-token";

/** The page's token: from its `?token=` (which this removes from the address), else the one it kept. */
export function takePageToken(): string | undefined {
  const fromAddress = new URL(location.href).searchParams.get("token");
  if (fromAddress === null) return stored();
  try {
    sessionStorage.setItem(PAGE_TOKEN_KEY, fromAddress);
  } catch {
    return fromAddress;
  }
  history.replaceState(history.state, "", withoutToken(location.href));
  return fromAddress;
}

function stored(): string | undefined {
  try {
    return sessionStorage.getItem(PAGE_TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `href` without its `token` parameters; the other parameters stay exactly as they were written. */
function withoutToken(href: string): string {
  const url = new URL(href);
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && parameterName(pair) !== "token");
  url.search = kept.length === 0 ? "" : `?${kept.join("&")}`;
  return url.href;
}

function parameterName(pair: string): string {
  const raw = pair.split("=", 1)[0] ?? "";
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}
