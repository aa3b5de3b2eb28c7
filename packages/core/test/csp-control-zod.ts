/**
 * Control for the CSP test (loaded by test/fixtures/csp/zod-default.html): classic zod in its default (JIT)
 * configuration, whose object schemas probe `new Function`. That probe must be reported on the strict page, which
 * proves the strict-page test would notice if the core ever let zod generate code. (zod/mini's objects do not
 * compile in zod 4.6; the core still sets `jitless` so a future zod cannot start.)
 */
import * as z from "zod";

declare global {
  interface Window {
    runControl?: () => unknown;
  }
}

window.runControl = () => z.object({ a: z.string() }).safeParse({ a: "x" }).success;
