/**
 * Control for the CSP test (loaded by test/fixtures/csp/zod-default.html): classic zod, whose object schemas probe
 * `new Function` for their compiled parsers. In its default configuration that probe must be reported on the strict
 * page, which proves the strict-page test would notice code generation. With `?jitless` the page first opts out as
 * the README advises (`z.config({ jitless: true })`, the page's own choice), and nothing may be reported.
 */
import * as z from "zod";

declare global {
  interface Window {
    runControl?: () => unknown;
  }
}

if (new URLSearchParams(location.search).has("jitless")) z.config({ jitless: true });

window.runControl = () => z.object({ a: z.string() }).safeParse({ a: "x" }).success;
