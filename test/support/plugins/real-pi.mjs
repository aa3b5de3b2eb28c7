// A real pi (test/support/real-pi.ts; `{ version }` picks 0.73.1 or 1.6.0) behind the real bridge, for the end-to-end tests that run inside the
// test runner in every engine (test/e2e/browser). `executeServerCommand("real-pi:start")` starts pi with the test
// extension and a bridge on loopback and returns the no-build page's URL (demo/hosts/plain/index.html with
// ?bridge=<ws url>); the runner's server serves that page and the single-file bundle next to it, so the page is
// same-origin with the test and can sit in an iframe it reads and reloads. "real-pi:stop" ends both. Needs the
// runner started under tsx (package.json's test:browser) and a built bundle (pnpm build).
// For a model turn, `{ version, script }` also starts the scripted model (test/support/scripted-model.ts) with that
// script (an array of ScriptedReply: text, thinking, toolCalls, delayMs…) and points pi at it; "real-pi:script"
// `{ script }` gives it the next script, and "real-pi:file" `{ path }` reads a file (or null) in pi's throwaway cwd,
// where the tools pi runs act. A test reads the bridge's ws URL (with its token) from the page URL's `bridge`.
import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXTENSION = `${ROOT}test/fixtures/pi/extensions/ui-exercise.ts`;
const BUNDLE = `${ROOT}packages/elements/dist/pi-elements.bundle.js`;
const PAGE = "/demo/hosts/plain/index.html";

export function realPiPlugin() {
  /** One pi and bridge per test session (one test file in one engine). */
  const running = new Map();
  async function stop(id) {
    const entry = running.get(id);
    running.delete(id);
    await entry?.bridge.close();
    await entry?.model?.close();
    entry?.pi.cleanup();
  }
  return {
    name: "pi-real-pi",
    async serve(context) {
      // The page loads ./pi-elements.bundle.js: the bundle as built, byte for byte.
      if (context.path === "/demo/hosts/plain/pi-elements.bundle.js") {
        return { body: await readFile(BUNDLE, "utf8"), type: "js" };
      }
      return undefined;
    },
    async executeCommand({ command, payload, session }) {
      if (command === "real-pi:start") {
        await stop(session.id);
        // Loaded on first use, so the runner starts without tsx for every other test file.
        const { startBridge } = await import("../../../packages/bridge/src/index.ts");
        const { isolatedPi, PI_VERSIONS } = await import("../real-pi.ts");
        const version = PI_VERSIONS.find((v) => v.version === (payload?.version ?? "0.73.1"));
        if (!version) throw new Error(`real-pi:start: no pi ${payload?.version} under test`);
        let model;
        if (payload?.script !== undefined) {
          const { startScriptedModel } = await import("../scripted-model.ts");
          model = await startScriptedModel(payload.script);
        }
        const pi = isolatedPi(EXTENSION, { pi: version, model });
        const bridge = await startBridge({ port: 0, ...pi.options, log: () => {} });
        running.set(session.id, { pi, bridge, model });
        return `${PAGE}?bridge=${encodeURIComponent(bridge.url)}`;
      }
      if (command === "real-pi:script") {
        const model = running.get(session.id)?.model;
        if (!model) throw new Error("real-pi:script: no scripted model (start with a script)");
        model.setScript(payload.script);
        return true;
      }
      if (command === "real-pi:file") {
        const pi = running.get(session.id)?.pi;
        if (!pi) throw new Error("real-pi:file: no pi running");
        const path = resolve(pi.cwd, payload.path);
        const inside = relative(pi.cwd, path);
        if (inside.startsWith("..") || isAbsolute(inside))
          throw new Error(`real-pi:file: ${payload.path} is outside pi's cwd`);
        return readFile(path, "utf8").catch(() => null);
      }
      if (command === "real-pi:stop") {
        await stop(session.id);
        return true;
      }
      return undefined;
    },
    async serverStop() {
      await Promise.all([...running.keys()].map(stop));
    },
  };
}
