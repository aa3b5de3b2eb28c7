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
// `{ version, script, choices: true }` gives pi three scripted models to choose from (piModelChoicesJson);
// "real-pi:rpc" `{ command }` sends one command (e.g. `{ type: "get_state" }`) to pi from a client of its own and
// returns pi's response, so a test reads what pi itself reports; "real-pi:requests" returns the scripted model's
// requests so far, but for their messages and tools (the model and options pi asked with). /readme/full/index.html?bridge=<ws url> serves
// README.md's complete page ("embedding: full index.html") as written, but for the bundle's address (the dist/ here)
// and its pi-session's url (that bridge).
import { readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXTENSION = `${ROOT}test/fixtures/pi/extensions/ui-exercise.ts`;
const BUNDLE = `${ROOT}packages/elements/dist/pi-elements.bundle.js`;
const PAGE = "/demo/hosts/plain/index.html";

const README = `${ROOT}README.md`;
const README_PAGE = "/readme/full/index.html";

/** The fenced block after `<!-- embedding: NAME -->` in README.md (as test/e2e/packaging.test.ts reads it). */
function readmeBlock(readme, name) {
  const marker = `<!-- embedding: ${name} -->`;
  const at = readme.indexOf(marker);
  const block = at === -1 ? null : /^```[a-z]*\n([\s\S]*?)^```$/m.exec(readme.slice(at + marker.length));
  if (!block) throw new Error(`README.md has no block after ${marker}`);
  return block[1];
}

function escapeAttribute(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

export function realPiPlugin() {
  let rpcs = 0;
  /** One pi and bridge per test session (one test file in one engine). */
  const running = new Map();
  async function stop(id) {
    const entry = running.get(id);
    running.delete(id);
    await entry?.bridge.close();
    await entry?.model?.close();
    entry?.pi.cleanup();
  }
  /** Sends `command` to the pi of `entry` from a client of its own, and gives pi's response. */
  async function rpc(entry, command) {
    const { TestClient } = await import("../../../packages/bridge/test/support/harness.ts");
    const client = await TestClient.connect(entry.bridge.url);
    try {
      const id = `real-pi-rpc-${++rpcs}`;
      client.send({ ...command, id });
      return await client.next((r) => r.type === "response" && r.id === id);
    } finally {
      await client.close();
    }
  }
  return {
    name: "pi-real-pi",
    async serve(context) {
      // The page loads ./pi-elements.bundle.js: the bundle as built, byte for byte.
      if (context.path === "/demo/hosts/plain/pi-elements.bundle.js") {
        return { body: await readFile(BUNDLE, "utf8"), type: "js" };
      }
      if (context.path === README_PAGE) {
        const bridge = context.URL.searchParams.get("bridge") ?? "";
        const page = readmeBlock(await readFile(README, "utf8"), "full index.html")
          .replace('src="./node_modules/@pi-elements/elements/dist/', 'src="/packages/elements/dist/')
          .replace('<pi-session url="/">', `<pi-session url="${escapeAttribute(bridge)}">`);
        return { body: page, type: "html" };
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
        if (payload?.choices === true && model) {
          const { piModelChoicesJson } = await import("../scripted-model.ts");
          await writeFile(join(pi.home, "agent", "models.json"), piModelChoicesJson(model));
        }
        // The bridge's log (pi's stderr, its exits and restarts, refusals), newest last: said when a test's wait on pi
        // fails ("real-pi:report").
        const log = [];
        const bridge = await startBridge({
          port: 0,
          ...pi.options,
          log: (line) => {
            log.push(line.length > 300 ? `${line.slice(0, 299)}…` : line);
            if (log.length > 40) log.shift();
          },
        });
        running.set(session.id, { pi, bridge, model, log });
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
      if (command === "real-pi:rpc") {
        const entry = running.get(session.id);
        if (!entry) throw new Error("real-pi:rpc: no pi running");
        return rpc(entry, payload.command);
      }
      if (command === "real-pi:report") {
        // What pi's side says when a wait on the page fails: pi's own state (from a client of its own), how many
        // requests the scripted model got, and the bridge's log.
        const entry = running.get(session.id);
        if (!entry) return "no pi running";
        let state;
        try {
          const response = await rpc(entry, { type: "get_state" });
          const { isStreaming, isCompacting, messageCount, pendingMessageCount } = response.data ?? {};
          state = JSON.stringify({ isStreaming, isCompacting, messageCount, pendingMessageCount });
        } catch (error) {
          state = `not read (${error instanceof Error ? error.message : String(error)})`;
        }
        return [
          `pi's state ${state}`,
          `the model's requests ${entry.model ? entry.model.requests.length : "(no model)"}`,
          `the bridge's log ${JSON.stringify(entry.log)}`,
        ].join(", ");
      }
      if (command === "real-pi:requests") {
        const model = running.get(session.id)?.model;
        if (!model) throw new Error("real-pi:requests: no scripted model (start with a script)");
        return model.requests.map(({ messages, tools, ...rest }) => rest);
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
