// What the bundle costs on the wire: minified, then gzip at level 9 (zlib), for the whole bundle and for each
// element's entry bundled alone. Shared by the CI ceiling check and `pnpm bench`.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { bundleElement, bundlePath, CONVERSATION_BUNDLES, conversationBundleFiles, elementNames } from "./bundle.mjs";

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

/**
 * `{ "pi-transcript.bundle": { eager, lazy }, … }`: for each conversation bundle, what a page loads before anything
 * renders (the entry and its static chunks) and, apart, what it loads lazily when first needed (the chunks it imports
 * dynamically), min + gzip -9, each file gzipped on its own as a server sends it.
 */
export function conversationBundleGzipBytes() {
  const sizes = {};
  for (const { name } of CONVERSATION_BUNDLES) {
    const { eager, lazy } = conversationBundleFiles(name);
    const sum = (files) => files.reduce((total, file) => total + gzipSize(readFileSync(file)), 0);
    sizes[name] = { eager: sum(eager), lazy: sum(lazy) };
  }
  return sizes;
}
