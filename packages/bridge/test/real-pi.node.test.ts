/**
 * The bridge around the REAL pi 0.73.1 with the test extension (test/fixtures/pi/extensions/ui-exercise.ts).
 * Extension commands need no API key. pi runs with a temporary HOME and agent dir, writes no session, and loads
 * no other extension, skill, prompt or context file. Each result is read from the notify the extension sends
 * back, i.e. from what pi actually received.
 */

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type IsolatedPi, isolatedPi, PI_VERSIONS, type PiVersion } from "../../../test/support/real-pi.js";
import { type RunningBridge, startBridge } from "../src/index.js";
import { type Rec, TestClient } from "./support/harness.js";

const EXTENSION = fileURLToPath(new URL("../../../test/fixtures/pi/extensions/ui-exercise.ts", import.meta.url));
const MARKUP = "<img src=x onerror=alert(1)>";

async function startPiBridge(version: PiVersion): Promise<{ bridge: RunningBridge; logs: string[]; pi: IsolatedPi }> {
  const pi = isolatedPi(EXTENSION, { pi: version });
  const logs: string[] = [];
  const bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: (line) => logs.push(line) });
  return { bridge, logs, pi };
}

const notifyWith = (prefix: string) => (r: Rec) =>
  r.type === "extension_ui_request" && r.method === "notify" && String(r.message).startsWith(prefix);
const dialog = (method: string) => (r: Rec) => r.type === "extension_ui_request" && r.method === method;

function command(client: TestClient, name: string): number {
  const from = client.records.length;
  client.send({ type: "prompt", message: `/${name}`, id: `cmd-${name}-${from}` });
  return from;
}

for (const version of PI_VERSIONS) {
  describe(`the real pi through the bridge (pi ${version.version})`, { timeout: 120_000 }, () => {
    let bridge: RunningBridge;
    let pi: IsolatedPi;
    before(async () => {
      ({ bridge, pi } = await startPiBridge(version));
    });
    after(async () => {
      await bridge.close();
      pi.cleanup();
    });

    it("a select opened by an extension, answered over the WebSocket, reaches pi", async () => {
      const client = await TestClient.connect(bridge.url);
      const from = command(client, "ui-select");
      const select = await client.next(dialog("select"), from);
      assert.equal(select.title, `Pick one ${MARKUP}`);
      assert.deepEqual(select.options, ["Alpha", "Beta", MARKUP, "雪 (snow)"]);
      client.send({ type: "extension_ui_response", id: select.id, value: "雪 (snow)" });
      const notify = await client.next(notifyWith("ui-select ->"), from);
      assert.equal(notify.message, 'ui-select -> "雪 (snow)"');
      await client.close();
    });

    it("two dialogs pending at once, answered from two clients", async () => {
      const a = await TestClient.connect(bridge.url);
      const b = await TestClient.connect(bridge.url);
      const from = command(a, "ui-two");
      const confirm = await b.next(dialog("confirm"));
      const input = await b.next(dialog("input"));
      b.send({ type: "extension_ui_response", id: input.id, value: "typed 漢字" });
      a.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
      const notify = await a.next(notifyWith("ui-two ->"), from);
      assert.equal(notify.message, 'ui-two -> {"confirmed":true,"value":"typed 漢字"}');
      await Promise.all([a.close(), b.close()]);
    });

    it("a page that reconnects in the middle of a dialog gets it again, and its answer reaches pi", async () => {
      const first = await TestClient.connect(bridge.url);
      const from = command(first, "ui-confirm");
      const confirm = await first.next(dialog("confirm"), from);
      await first.close();

      const again = await TestClient.connect(bridge.url);
      const replayed = await again.next((r) => r.id === confirm.id);
      assert.deepEqual(replayed, confirm);
      again.send({ type: "extension_ui_response", id: confirm.id, confirmed: true });
      assert.equal((await again.next(notifyWith("ui-confirm ->"))).message, "ui-confirm -> true");
      await again.close();
    });

    it("two pages: the first answer wins, pi gets it once, the other page is told", async () => {
      const a = await TestClient.connect(bridge.url);
      const b = await TestClient.connect(bridge.url);
      const from = command(a, "ui-input");
      const input = await a.next(dialog("input"), from);
      await b.next((r) => r.id === input.id);
      a.send({ type: "extension_ui_response", id: input.id, value: "first" });
      assert.deepEqual(await b.next((r) => r.type === "pi-elements/dialog_closed"), {
        type: "pi-elements/dialog_closed",
        id: input.id,
        reason: "answered",
      });
      // The other page answers too, as a page that had not yet heard would.
      b.send({ type: "extension_ui_response", id: input.id, value: "second" });
      assert.equal((await a.next(notifyWith("ui-input ->"), from)).message, 'ui-input -> "first"');
      // Run one more command to be sure no second result follows the first.
      const next = command(a, "ui-title");
      await a.next(notifyWith("ui-title ->"), next);
      assert.equal(a.records.filter(notifyWith("ui-input ->")).length, 1);
      await Promise.all([a.close(), b.close()]);
    });

    it("timed dialogs left alone expire in pi and in the bridge; pi gets its defaults", async () => {
      const client = await TestClient.connect(bridge.url);
      client.send({ type: "prompt", message: "/ui-timed 300", id: "timed" });
      const select = await client.next(dialog("select"));
      assert.equal(select.timeout, 300);
      assert.deepEqual(await client.next((r) => r.type === "pi-elements/dialog_closed" && r.id === select.id), {
        type: "pi-elements/dialog_closed",
        id: select.id,
        reason: "expired",
      });
      assert.equal((await client.next(notifyWith("ui-timed select ->"))).message, "ui-timed select -> undefined");
      assert.equal((await client.next(notifyWith("ui-timed confirm ->"))).message, "ui-timed confirm -> false");
      await client.close();
    });

    it("editor text with U+2028, U+2029 and CJK arrives as one record, and is replayed", async () => {
      const client = await TestClient.connect(bridge.url);
      const from = command(client, "ui-editor-text");
      const request = await client.next(dialog("set_editor_text"), from);
      const text = `漢字と仮名\u2028line separator\u2029paragraph separator\n简体中文 ${MARKUP}`;
      assert.equal(request.text, text);
      await client.close();
      const late = await TestClient.connect(bridge.url);
      assert.equal((await late.next(dialog("set_editor_text"))).text, text);
      await late.close();
    });

    it("a 2,000-status burst arrives whole, and a late client sees only the last status", async () => {
      const client = await TestClient.connect(bridge.url);
      const from = command(client, "ui-burst");
      await client.next(notifyWith("ui-burst -> 2000"), from);
      const statuses = client.records.slice(from).filter((r) => r.method === "setStatus" && r.statusKey === "burst");
      assert.equal(statuses.length, 2000);
      assert.equal(statuses.at(-1)?.statusText, "burst 2000/2000");
      await client.close();
      const late = await TestClient.connect(bridge.url);
      await late.next((r) => r.statusKey === "burst");
      assert.deepEqual(
        late.records.filter((r) => r.statusKey === "burst").map((r) => r.statusText),
        ["burst 2000/2000"],
      );
      await late.close();
    });

    it("styled statuses and a moved widget are replayed as pi left them", async () => {
      const client = await TestClient.connect(bridge.url);
      let from = command(client, "ui-styled");
      await client.next(notifyWith("ui-styled ->"), from);
      from = command(client, "ui-move");
      await client.next(notifyWith("ui-move ->"), from);
      from = command(client, "ui-tall");
      await client.next(notifyWith("ui-tall ->"), from);
      await client.close();

      const late = await TestClient.connect(bridge.url);
      await late.next((r) => r.widgetKey === "tall");
      const widgets = late.records.filter((r) => r.method === "setWidget");
      const mover = widgets.filter((r) => r.widgetKey === "mover");
      assert.deepEqual(
        mover.map((r) => [r.widgetPlacement, r.widgetLines]),
        [["belowEditor", ["I moved below"]]],
      );
      assert.equal((widgets.find((r) => r.widgetKey === "tall")?.widgetLines as string[] | undefined)?.length, 14);
      const styled = late.records.find((r) => r.statusKey === "styled");
      assert.ok(String(styled?.statusText).includes("\u001b["), "ANSI escapes are kept for the client to render");
      await late.close();
    });
    it("clears remove statuses and widgets from the replay", async () => {
      const client = await TestClient.connect(bridge.url);
      let from = command(client, "ui-styled");
      await client.next(notifyWith("ui-styled ->"), from);
      from = command(client, "ui-clear");
      await client.next(notifyWith("ui-clear ->"), from);
      await client.close();
      const late = await TestClient.connect(bridge.url);
      late.send({ type: "get_state", id: "sync" });
      await late.next((r) => r.id === "sync");
      assert.deepEqual(
        late.records.filter((r) => r.method === "setStatus" || r.method === "setWidget"),
        [],
      );
      await late.close();
    });
  });
}

for (const version of PI_VERSIONS) {
  describe(`the real pi killed (pi ${version.version})`, { timeout: 60_000 }, () => {
    it("clients are told, with the signal, and the pending dialog closes", async () => {
      const { bridge, pi } = await startPiBridge(version);
      try {
        const client = await TestClient.connect(bridge.url);
        const from = command(client, "ui-editor");
        const editor = await client.next(dialog("editor"), from);
        const pid = await bridge.agentStarted();
        process.kill(pid, "SIGKILL");
        const exit = await client.next((r) => r.type === "pi-elements/agent_exit");
        assert.equal(exit.signal, "SIGKILL");
        assert.equal(exit.code, null);
        assert.ok(Array.isArray(exit.stderrTail));
        assert.ok(
          client.records.some(
            (r) => r.type === "pi-elements/dialog_closed" && r.id === editor.id && r.reason === "agent_exit",
          ),
        );
        await client.close();
      } finally {
        await bridge.close();
        pi.cleanup();
      }
    });
  });
}

for (const version of PI_VERSIONS) {
  describe(`the real pi with dialogs nobody can present (pi ${version.version})`, { timeout: 120_000 }, () => {
    const UNPRESENTABLE = fileURLToPath(
      new URL("../../../test/fixtures/pi/extensions/unpresentable.ts", import.meta.url),
    );
    let bridge: RunningBridge;
    let pi: IsolatedPi;
    before(async () => {
      pi = isolatedPi(UNPRESENTABLE, { pi: version });
      bridge = await startBridge({ port: 0, ...pi.options, restart: "never", log: () => {} });
    });
    after(async () => {
      await bridge.close();
      pi.cleanup();
    });

    for (const [name, method, result] of [
      ["confirm-no-message", "confirm", "false"],
      ["select-numbers", "select", "undefined"],
    ] as const) {
      it(`${name}: pi gets one cancel and the command completes, whether or not a client also cancels`, async () => {
        const quiet = await TestClient.connect(bridge.url);
        const from = command(quiet, name);
        const request = await quiet.next(dialog(method), from);
        // The client left it alone (it could not show it): the bridge's own cancel completed the command.
        const notify = await quiet.next(notifyWith(`${name} ->`), from);
        assert.equal(notify.message, `${name} -> ${result}`);

        // A client that cancels, as the core does for such a request, changes nothing: still one answer.
        const eager = await TestClient.connect(bridge.url);
        const again = command(eager, name);
        const second = await eager.next(dialog(method), again);
        assert.notEqual(second.id, request.id);
        eager.send({ type: "extension_ui_response", id: second.id, cancelled: true });
        const done = await eager.next(notifyWith(`${name} ->`), again);
        assert.equal(done.message, `${name} -> ${result}`);
        eager.send({ type: "get_state", id: `state-${name}` });
        await eager.next((r) => r.type === "response" && r.id === `state-${name}`);
        assert.equal(eager.records.slice(again).filter(notifyWith(`${name} ->`)).length, 1);
        await Promise.all([quiet.close(), eager.close()]);
      });
    }
  });
}
