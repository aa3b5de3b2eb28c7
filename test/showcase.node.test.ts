/**
 * The demo's showcase commands (demo/showcase/commands.ts), run against a UI that keeps what they set, as the page's
 * stores would: /clear takes away everything the other commands set (statuses, widgets, the title) and leaves what
 * the session's start set (issue #34: after /clear, statuses and the title stayed).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { commands, onSessionStart, type ShowcaseUi } from "../demo/showcase/commands.js";

function keepingUi() {
  const statuses = new Map<string, string>();
  const widgets = new Map<string, string[]>();
  const state = { title: "", statuses, widgets };
  const ui: ShowcaseUi = {
    select: async () => undefined,
    confirm: async () => false,
    input: async () => undefined,
    editor: async () => undefined,
    notify: () => {},
    setStatus: (key, text) => {
      if (text === undefined) statuses.delete(key);
      else statuses.set(key, text);
    },
    setWidget: (key, lines) => {
      if (lines === undefined) widgets.delete(key);
      else widgets.set(key, lines);
    },
    setTitle: (title) => {
      state.title = title;
    },
    setEditorText: () => {},
    fg: (_color, text) => text,
  };
  return { ui, state };
}

test("/clear takes away what every other command set, and keeps what the session's start set", async () => {
  const { ui, state } = keepingUi();
  onSessionStart(ui);
  const atStart = { title: state.title, statuses: [...state.statuses.keys()], widgets: [...state.widgets.keys()] };
  for (const name of ["status", "widget", "widget-below", "burst", "markup"]) await commands[name]!.run(ui, "");
  assert.notEqual(state.title, atStart.title, "markup sets a title of its own");
  assert.ok(state.statuses.size > atStart.statuses.length);
  await commands["clear"]!.run(ui, "");
  assert.deepEqual(
    { title: state.title, statuses: [...state.statuses.keys()], widgets: [...state.widgets.keys()] },
    atStart,
  );
});

test("every command that sets a status or a widget is undone by /clear (each command on its own)", async () => {
  for (const [name, command] of Object.entries(commands)) {
    if (name === "clear") continue;
    const { ui, state } = keepingUi();
    onSessionStart(ui);
    const statuses = [...state.statuses.keys()];
    const widgets = [...state.widgets.keys()];
    await command.run(ui, "");
    await commands["clear"]!.run(ui, "");
    assert.deepEqual([...state.statuses.keys()], statuses, `/${name}'s statuses`);
    assert.deepEqual([...state.widgets.keys()], widgets, `/${name}'s widgets`);
  }
});
