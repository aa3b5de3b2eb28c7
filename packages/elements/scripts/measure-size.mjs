// What the bundle costs on the wire: minified, then gzip at level 9 (zlib), for the whole bundle and for each
// element's entry bundled alone. Shared by the CI ceiling check and `pnpm bench`.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { bundleElement, bundlePath, elementNames } from "./bundle.mjs";

export const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;

export function bundleGzipBytes() {
  return gzipSize(readFileSync(bundlePath));
}

/** `{ "pi-prompt": bytes, … }` for every element folder. */
export async function perElementGzipBytes() {
  const sizes = {};
  for (const name of elementNames()) sizes[`pi-${name}`] = gzipSize(await bundleElement(name));
  return sizes;
}
