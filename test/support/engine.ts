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

/**
 * Resolves when the page has received a `type` event for `key`: the driver's command can answer before its event has
 * reached the page (seen in Firefox on a busy machine: a held Enter arrived after the dialog the test opened next). A
 * bound catches a key that never arrives, and says which.
 */
function arrival(type: "keydown" | "keyup", key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      window.removeEventListener(type, seen, true);
      reject(new Error(`the page got no ${type} of ${key} within 20 s of the driver's command`));
    }, 20_000);
    function seen(event: KeyboardEvent) {
      if (event.key !== key) return;
      clearTimeout(bound);
      window.removeEventListener(type, seen, true);
      resolve();
    }
    window.addEventListener(type, seen, true);
  });
}

/** The keys `keyDown` holds down. */
const held = new Set<string>();

/**
 * Presses `key` and keeps it down (pressing it again is an auto-repeat), for tests of keys held before arming.
 * Resolves once the page has received its keydown; an auto-repeat is sent without waiting (WebKit's driver sends no
 * event for a key already down, the others a keydown with `repeat`).
 */
export async function keyDown(key: string): Promise<void> {
  if (held.has(key)) return void (await executeServerCommand("keys", { down: key }));
  const arrived = arrival("keydown", key);
  await executeServerCommand("keys", { down: key });
  held.add(key);
  await arrived;
}

/** Releases `key`; resolves once the page has received its keyup. */
export async function keyUp(key: string): Promise<void> {
  const arrived = arrival("keyup", key);
  await executeServerCommand("keys", { up: key });
  held.delete(key);
  await arrived;
}
