/**
 * zod's configuration for the core, imported for its side effect by every schema module before `zod/mini`.
 *
 * zod 4 compiles fast object parsers with `new Function` and probes for it the first time an object schema is built.
 * Under a strict Content-Security-Policy (no `unsafe-eval`) even the caught probe is reported as a violation, so the
 * core switches zod to its interpreter before any schema exists: each schema module starts with `import "./zod.js"`,
 * and ES modules run their imports in order. The extension-UI messages this validates are small; the interpreter is
 * fast enough. The schema modules import `zod/mini` themselves (`import * as z`, used only as `z.name`) rather than a
 * re-export from here, because a namespace passed around as a value keeps all of zod in a bundle. package.json lists
 * this file under `sideEffects` so bundlers keep the bare import.
 *
 * Each zod class a schema uses costs the single-file element bundle its code, so the schemas stay with a few
 * (objects, optional, unknown): a union is a `taggedUnion` (tagged-union.ts), a bound is a check function
 * (extension-ui.ts), and strings, numbers, arrays, literals and value sets (`literal([...])`, not `z.enum`, and
 * booleans as `literal([true, false])`) and "or null" are checks on `z.unknown()` (checked.ts). Sizes are
 * min + gzip, as `pnpm run size` measures them.
 */
import { config } from "zod/mini";

config({ jitless: true });
