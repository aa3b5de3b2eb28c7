/**
 * The core's own client (PiSession over WebSocketTransport with `framing: "jsonl"`) through the bridge to the
 * real pi 0.73.1 and the test extension: the wire format as the elements will see it, bridge messages included.
 */

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  type ExtensionUiRequest,
  PiSession,
  type UiSnapshot,
  type WebSocketConstructorLike,
  WebSocketTransport,
} from "@pi-elements/core";
import { WebSocket } from "ws";
import { isolatedPi, PI_VERSIONS } from "../../../test/support/real-pi.js";
import { type RunningBridge, startBridge } from "../src/index.js";

const EXTENSION = fileURLToPath(new URL("../../../test/fixtures/pi/extensions/ui-exercise.ts", import.meta.url));
const WAIT_LIMIT_MS = 15_000;

function connect(url: string): PiSession {
  const transport = new WebSocketTransport(url, {
    WebSocket: WebSocket as unknown as WebSocketConstructorLike,
    framing: "jsonl",
    reconnect: false,
  });
  return new PiSession(transport);
}

/** Resolves with the first ui-request that matches (listening starts now, so call it before triggering). */
function nextRequest(session: PiSession, match: (request: ExtensionUiRequest) => boolean): Promise<ExtensionUiRequest> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no matching ui-request arrived")), WAIT_LIMIT_MS);
    const listener = (event: { value: ExtensionUiRequest }) => {
      if (!match(event.value)) return;
      clearTimeout(timer);
      session.removeEventListener("ui-request", listener);
      resolve(event.value);
    };
    session.addEventListener("ui-request", listener);
  });
}

/** Resolves once the session's snapshot satisfies `check`. */
function until(session: PiSession, check: (snapshot: UiSnapshot) => boolean): Promise<UiSnapshot> {
  return new Promise((resolve, reject) => {
    if (check(session.ui.getSnapshot())) return resolve(session.ui.getSnapshot());
    const timer = setTimeout(() => reject(new Error("the snapshot never matched")), WAIT_LIMIT_MS);
    const unsubscribe = session.ui.subscribe(() => {
      const snapshot = session.ui.getSnapshot();
      if (!check(snapshot)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(snapshot);
    });
  });
}

const notify = (prefix: string) => (r: ExtensionUiRequest) => r.method === "notify" && r.message.startsWith(prefix);

for (const version of PI_VERSIONS) {
  describe(`PiSession through the bridge to the real pi (pi ${version.version})`, { timeout: 120_000 }, () => {
    let bridge: RunningBridge;
    const pi = isolatedPi(EXTENSION, { pi: version });
    before(async () => {
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
    });
    after(async () => {
      await bridge.close();
      pi.cleanup();
    });

    it("answers a dialog with session.respond, and pi receives it", async () => {
      const session = connect(bridge.url);
      try {
        const select = nextRequest(session, (r) => r.method === "select");
        const result = nextRequest(session, notify("ui-select ->"));
        const done = session.send("prompt", { message: "/ui-select" });
        const request = await select;
        assert.equal(session.ui.getSnapshot().dialogs[0]?.id, request.id);
        assert.equal(session.respond(request.id, { value: "Alpha" }), true);
        assert.equal(((await result) as { message: string }).message, 'ui-select -> "Alpha"');
        await done;
        assert.equal(session.diagnosticCount, 0);
      } finally {
        session.close();
      }
    });

    it("a command this pi does not know is refused at once, never left waiting (0.73.1 answers it without its id)", async () => {
      const session = connect(bridge.url);
      try {
        // pi 1.x's command: 0.73.1 says "Unknown command" in a response without the command's id. The timeout only
        // catches a command left waiting (its message is then the outcome compared).
        const options = { report: false, timeout: WAIT_LIMIT_MS };
        const outcome = await session.send("get_available_thinking_levels", {}, options).then(
          () => "answered",
          (error: Error) => error.message,
        );
        assert.equal(
          outcome,
          version.version === "0.73.1" ? "Unknown command: get_available_thinking_levels" : "answered",
        );
        assert.equal(session.diagnosticCount, 0);
      } finally {
        session.close();
      }
    });

    it("a session that connects mid-dialog gets it from the replay; another client's answer closes it", async () => {
      const first = connect(bridge.url);
      const late = connect(bridge.url);
      try {
        const input = nextRequest(first, (r) => r.method === "input");
        const sent = first.send("prompt", { message: "/ui-input" });
        const request = await input;
        const pending = await until(late, (s) => s.dialogs.some((d) => d.id === request.id));
        assert.equal(pending.dialogs[0]?.request.title, "Your name <img src=x onerror=alert(1)>");

        const closedInLate = new Promise<{ id: string; reason: string }>((resolve) => {
          late.addEventListener("dialog-closed", (event) => resolve(event.value), { once: true });
        });
        const result = nextRequest(late, notify("ui-input ->"));
        assert.equal(first.respond(request.id, { value: "from the first" }), true);
        assert.deepEqual(await closedInLate, { id: request.id, reason: "remote" });
        assert.equal(late.respond(request.id, { value: "too late" }), false, "nothing to answer any more");
        assert.equal(((await result) as { message: string }).message, 'ui-input -> "from the first"');
        await sent;
      } finally {
        first.close();
        late.close();
      }
    });

    it("a 2,000-status burst and styled text reach the session without a diagnostic", async () => {
      const session = connect(bridge.url);
      try {
        const burst = nextRequest(session, notify("ui-burst ->"));
        await session.send("prompt", { message: "/ui-burst" });
        await burst;
        const styled = nextRequest(session, notify("ui-styled ->"));
        await session.send("prompt", { message: "/ui-styled" });
        await styled;
        const snapshot = session.ui.getSnapshot();
        assert.equal(snapshot.statuses.find((s) => s.key === "burst")?.text, "burst 2000/2000");
        assert.ok(snapshot.statuses.find((s) => s.key === "raw")?.raw.includes("\u001b[38;5;226m"));
        assert.equal(session.diagnosticCount, 0);
      } finally {
        session.close();
      }
    });

    it("the replay gives a new session the same state the first one built live", async () => {
      const live = connect(bridge.url);
      try {
        const filled = nextRequest(live, notify("ui-fill ->"));
        await live.send("prompt", { message: "/ui-fill" });
        await filled;
        const moved = nextRequest(live, notify("ui-move ->"));
        await live.send("prompt", { message: "/ui-move" });
        await moved;
        const fresh = connect(bridge.url);
        try {
          const replayed = await until(fresh, (s) => s.widgets.belowEditor.some((w) => w.key === "mover"));
          const current = live.ui.getSnapshot();
          assert.deepEqual(replayed.statuses, current.statuses);
          assert.deepEqual(replayed.widgets, current.widgets);
          assert.equal(replayed.title, current.title);
          // The editor text /ui-fill set was used up by the prompt that followed (/ui-move): a new page starts empty.
          assert.ok(current.editorText?.text);
          assert.equal(replayed.editorText, undefined);
        } finally {
          fresh.close();
        }
      } finally {
        live.close();
      }
    });
  });
}
