/**
 * Real IME compositions (Japanese through ibus-anthy, Chinese through ibus-libpinyin) for the browser tests, in
 * every engine:
 * - Chromium composes live through its DevTools protocol (plugins/ime.mjs): the composition texts IBus produced in
 *   Chromium's own recording, key by key, set with Input.imeSetComposition; the key that commits sent as a raw key
 *   press (key "Enter", stricter than the "Process" keydown Chromium really fires), then the committed text with
 *   Input.insertText.
 * - Firefox and WebKit replay their own recording (test/fixtures/ime/<engine>-<language>.jsonl, written by
 *   scripts/record-ime.mjs from the stock browser, IBus and real X key presses): every event the engine fired, in
 *   its order and with its fields (key, code, keyCode, isComposing, inputType, data), dispatched on the test's field
 *   (a modal dialog's cancel on the dialog around it), whose value and selection are set as the recording shows them
 *   at each event. Their drivers cannot reach an input method: this is what those engines really fire, without the
 *   engine's own reaction to the page (a recording cannot tell what the engine would do if the page changed the
 *   field during the composition).
 *
 * A recording is a list of keys, each with its phase: "compose" (opens and fills the composition), "convert"
 * (Japanese Space: the reading becomes 日本語), "enter" (the key that commits: Enter, or Space picking a Chinese
 * candidate), "cancel" (Esc while composing), "after" (the plain key that follows; the tests press that one
 * themselves). On an element that is not editable (a list) no input method composes: there every engine, Chromium
 * included, replays its own recording of the keys typed with the input method on.
 */
import { executeServerCommand } from "@web/test-runner-commands";
import { engine } from "./engine.js";

export type Language = "ja" | "zh";
export type Phase = "compose" | "convert" | "enter" | "cancel";
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLElement;

/** One event as the engine fired it, with the field's state at that moment (absent on a non-editable element). */
export interface RecordedEvent {
  type: string;
  key?: string;
  code?: string;
  keyCode?: number;
  charCode?: number;
  isComposing?: boolean;
  inputType?: string;
  data?: string | null;
  value?: string;
  selectionStart?: number;
  selectionEnd?: number;
}

export interface RecordedStep {
  /** The key pressed (an X key name: "n", "space", "Return", "F10"). */
  key: string;
  phase: Phase | "after";
  events: RecordedEvent[];
}

export interface RecordedScenario {
  name: string;
  field: "input" | "textarea" | "listbox";
  what: string;
  steps: RecordedStep[];
}

export interface Recording {
  header: Record<string, unknown>;
  scenarios: RecordedScenario[];
}

const recordings = new Map<string, Promise<Recording>>();

/** The recording of `engineName` in `language` (fetched once per file from the test server). */
export function recording(engineName: "chromium" | "firefox" | "webkit", language: Language): Promise<Recording> {
  const file = `${engineName}-${language}.jsonl`;
  let loaded = recordings.get(file);
  if (!loaded) {
    loaded = fetch(new URL(`../fixtures/ime/${file}`, import.meta.url)).then(async (response) => {
      if (!response.ok) throw new Error(`ime: no recording ${file} (${response.status})`);
      return parseRecording(await response.text());
    });
    recordings.set(file, loaded);
  }
  return loaded;
}

/**
 * A recording file: one JSON value a line, the header first, then each scenario ({"scenario": name, "field",
 * ...}) followed by its steps ({"key", "phase"}), each followed by its events ({"type", ...}).
 */
export function parseRecording(text: string): Recording {
  const found: Recording = { header: {}, scenarios: [] };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    if ("header" in value) found.header = value["header"] as Record<string, unknown>;
    else if ("scenario" in value) {
      const { scenario, ...rest } = value;
      found.scenarios.push({
        ...(rest as Omit<RecordedScenario, "name" | "steps">),
        name: String(scenario),
        steps: [],
      });
    } else if ("phase" in value)
      found.scenarios.at(-1)?.steps.push({ ...(value as Omit<RecordedStep, "events">), events: [] });
    else
      found.scenarios
        .at(-1)
        ?.steps.at(-1)
        ?.events.push(value as unknown as RecordedEvent);
  }
  return found;
}

function fieldKind(field: Field): RecordedScenario["field"] {
  if (field instanceof HTMLTextAreaElement) return "textarea";
  if (field instanceof HTMLInputElement) return "input";
  return "listbox";
}

function scenarioIn(found: Recording, name: string, kind: RecordedScenario["field"]): RecordedScenario {
  const scenario = found.scenarios.find((s) => s.name === name && s.field === kind);
  if (!scenario) throw new Error(`ime: the recording has no scenario ${name} in its ${kind} field`);
  return scenario;
}

/** The composition text on screen after a step (its last compositionupdate), or undefined if it did not change. */
function preeditOf(step: RecordedStep): string | undefined {
  return step.events.filter((event) => event.type === "compositionupdate").at(-1)?.data ?? undefined;
}

function committedOf(steps: RecordedStep[]): string | undefined {
  const ends = steps.flatMap((step) => step.events).filter((event) => event.type === "compositionend");
  return ends.at(-1)?.data ?? undefined;
}

export interface Composition {
  /** How this engine composes: live through the DevTools protocol, or its recording replayed. */
  readonly how: "devtools" | "recording";
  readonly scenario: RecordedScenario;
  /** The text the composition commits. */
  readonly committed: string;
  /** The events this engine fired for the keys of `phase` in its recording. */
  events(phase: Phase): RecordedEvent[];
  /** Plays the keys of one phase; `afterKey` runs after each key, given the composition text then on screen. */
  play(phase: Phase, afterKey?: (preedit: string | undefined) => unknown): Promise<void>;
}

/**
 * A real composition of scenario `name` (see scripts/record-ime.mjs) in `language`, typed into `field`, which must
 * have focus: its caret (or selection) is where the composition goes.
 */
export async function composition(field: Field, language: Language, name: string): Promise<Composition> {
  const { name: engineName, ime } = await engine();
  const kind = fieldKind(field);
  const live = ime === "devtools" && kind !== "listbox";
  const scenario = scenarioIn(await recording(engineName, language), name, kind);
  const committed = committedOf(scenario.steps) ?? "";
  const stepsOf = (phase: Phase) => scenario.steps.filter((step) => step.phase === phase);
  const events = (phase: Phase) => stepsOf(phase).flatMap((step) => step.events);
  if (live) {
    return {
      how: "devtools",
      scenario,
      committed,
      events,
      async play(phase, afterKey) {
        for (const step of stepsOf(phase)) {
          const preedit = preeditOf(step);
          const typed = step.events
            .filter((event) => event.type === "input" && event.inputType === "insertText")
            .map((event) => event.data ?? "")
            .join("");
          if (typed !== "" && preedit === undefined) {
            // A key the IME let through (Chinese "/" before a composition): typed as it is.
            await executeServerCommand("ime", { action: "commit", text: typed });
          } else if (phase === "enter") {
            await executeServerCommand("ime", { action: "key", key: step.key === "space" ? " " : "Enter" });
            await executeServerCommand("ime", { action: "commit", text: committed });
          } else if (phase === "cancel") {
            // The IME swallows its Esc and empties the composition.
            await executeServerCommand("ime", { action: "key", key: "Escape" });
            await executeServerCommand("ime", { action: "compose", text: "" });
          } else if (preedit !== undefined) {
            await executeServerCommand("ime", { action: "compose", text: preedit });
          }
          await afterKey?.(phase === "enter" || phase === "cancel" ? undefined : preedit);
        }
      },
    };
  }
  const replay = new Replay(field);
  return {
    how: "recording",
    scenario,
    committed,
    events,
    async play(phase, afterKey) {
      for (const step of stepsOf(phase)) {
        for (const event of step.events) replay.dispatch(event);
        await afterKey?.(phase === "enter" || phase === "cancel" ? undefined : preeditOf(step));
      }
    },
  };
}

/**
 * Dispatches recorded events on a field. The recording was made in an empty field; here the field may hold text
 * around the caret: the recorded value goes between what was before and after the caret when the replay began.
 */
class Replay {
  readonly #field: Field;
  readonly #before: string;
  readonly #after: string;

  constructor(field: Field) {
    this.#field = field;
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
      const start = field.selectionStart ?? field.value.length;
      const end = field.selectionEnd ?? start;
      this.#before = field.value.slice(0, start);
      this.#after = field.value.slice(end);
    } else {
      this.#before = "";
      this.#after = "";
    }
  }

  dispatch(event: RecordedEvent): void {
    const field = this.#field;
    if (event.type === "cancel" || event.type === "close") {
      // The recording's field sat in a modal <dialog>: the engine took the key as the dialog's close request.
      field.closest("dialog")?.dispatchEvent(new Event(event.type, { cancelable: event.type === "cancel" }));
      return;
    }
    if (event.value !== undefined && (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) {
      const value = this.#before + event.value + this.#after;
      if (field.value !== value) field.value = value;
      const offset = this.#before.length;
      field.setSelectionRange(
        offset + (event.selectionStart ?? event.value.length),
        offset + (event.selectionEnd ?? event.value.length),
      );
    }
    field.dispatchEvent(create(event));
  }
}

function create(event: RecordedEvent): Event {
  const common = { bubbles: true, composed: true };
  switch (event.type) {
    case "keydown":
    case "keypress":
    case "keyup":
      return new KeyboardEvent(event.type, {
        ...common,
        cancelable: true,
        key: event.key ?? "",
        code: event.code ?? "",
        keyCode: event.keyCode ?? 0,
        charCode: event.charCode ?? 0,
        isComposing: event.isComposing ?? false,
      });
    case "compositionstart":
    case "compositionupdate":
    case "compositionend":
      return new CompositionEvent(event.type, {
        ...common,
        cancelable: event.type === "compositionstart",
        data: event.data ?? "",
      });
    case "beforeinput":
    case "input":
      return new InputEvent(event.type, {
        ...common,
        // Composition input cannot be cancelled (Input Events Level 2).
        cancelable: event.type === "beforeinput" && !/Composition/.test(event.inputType ?? ""),
        inputType: event.inputType ?? "",
        data: event.data ?? null,
        isComposing: event.isComposing ?? false,
      });
    default:
      throw new Error(`ime: cannot replay a ${event.type} event`);
  }
}
