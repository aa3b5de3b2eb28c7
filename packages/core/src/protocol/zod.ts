/**
 * The one place the core imports zod from.
 *
 * zod 4 compiles fast object parsers with `new Function` and probes for it the first time an object schema is built.
 * Under a strict Content-Security-Policy (no `unsafe-eval`) even the caught probe is reported as a violation, so the
 * core switches zod to its interpreter before any schema exists. Every schema module imports `z` from here, which
 * guarantees that order. The extension-UI messages this validates are small; the interpreter is fast enough.
 */
import * as z from "zod/mini";

z.config({ jitless: true });

export { z };
