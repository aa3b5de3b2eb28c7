/**
 * Browser-side: which engine runs this test file and what its driver can do, plus the few inputs every engine
 * receives the same way (see plugins/engine.mjs). Tests use these so one file runs in Chromium, Firefox and WebKit.
 */
import { executeServerCommand } from "@web/test-runner-commands";

export interface Engine {
  name: "chromium" | "firefox" | "webkit";
  /** The driver can emulate prefers-color-scheme and forced-colors (Playwright only). */
  media: boolean;
  /** The driver can compose text with an input method (Chromium's DevTools protocol only). */
  ime: boolean;
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
