/**
 * Runs a listener's body so that nothing it throws leaves it: an exception escaping an event listener would end
 * the process, and with it the agent's stdin. What was thrown is logged; `cleanUp` runs after it.
 */
export type Guard = (what: string, body: () => void, cleanUp?: () => void) => void;

export function guardWith(log: (line: string) => void): Guard {
  return (what, body, cleanUp) => {
    try {
      body();
    } catch (error) {
      log(`[pi-bridge] error while ${what} (ignored): ${error instanceof Error ? error.message : String(error)}`);
      cleanUp?.();
    }
  };
}
