/**
 * Browser-side: which engine runs this test file and what its driver can do, plus the few inputs every engine
 * receives the same way (see plugins/engine.mjs). Tests use these so one file runs in Chromium, Firefox and WebKit.
 */
import { executeServerCommand } from "@web/test-runner-commands";

export interface Engine {
  name: "chromium" | "firefox" | "webkit";
  /** The driver can emulate prefers-color-scheme and forced-colors (Playwright only). */
  media: boolean;
  /**
   * How the tests compose with an input method here (test/support/ime.ts): "devtools" live, through Chromium's
   * DevTools protocol; "recording" by replaying what this engine fired under a real IBus (WebDriver, classic or
   * BiDi, cannot reach an input method).
   */
  ime: "devtools" | "recording";
}

let cached: Promise<Engine> | undefined;
export function engine(): Promise<Engine> {
  cached ??= executeServerCommand<Engine, undefined>("engine");
  return cached;
}

/** Presses a key with modifiers held, e.g. "Shift+Enter", "Control+Enter", "Alt+Enter". */
export async function pressCombo(combo: string): Promise<void> {
  await executeServerCommand("keys", { press: combo });
}

/** Emulates media features; false where the engine's driver cannot. */
export function emulate(media: {
  colorScheme?: "light" | "dark" | "no-preference" | null;
  forcedColors?: "active" | "none" | null;
}): Promise<boolean> {
  return executeServerCommand<boolean, typeof media>("media", media);
}

/** Presses `key` and keeps it down (pressing it again is an auto-repeat), for tests of keys held before arming. */
export async function keyDown(key: string): Promise<void> {
  await executeServerCommand("keys", { down: key });
}

export async function keyUp(key: string): Promise<void> {
  await executeServerCommand("keys", { up: key });
}
