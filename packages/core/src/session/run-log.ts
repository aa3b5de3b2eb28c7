/**
 * The agent events of the run under way, kept for the first store that attaches in the middle of it. A page can make
 * its conversation store after the session has heard part of a run (its elements register late, or after the
 * bridge's replay of a reconnect has arrived); pi 1.x streams only deltas, so such a store would show nothing of the
 * answer until its message_end. Replayed to it, the run so far makes it start where a store attached at agent_start
 * would be.
 *
 * Kept only while no store is attached (once one is, it hears every event itself), from agent_start to the run's end,
 * and bounded: past `maxChars` characters of the records' lines the log is dropped for the rest of the run, and a
 * store that attaches then starts from pi's history as before (pi 0.73's updates carry the whole message so far, so it
 * catches up at the next one; pi 1.x's show from the next message on).
 */
import type { AgentEventBase } from "../protocol/events.js";

/** The default bound: 2 Mi characters of records, as the bridge's turn replay keeps of a streaming message. */
export const DEFAULT_RUN_LOG_CHARS = 2 * 1024 * 1024;

export class RunLog {
  readonly #maxChars: number;
  #events: AgentEventBase[] = [];
  #chars = 0;
  /** Between agent_start and the run's end, and not past the bound. */
  #keeping = false;

  constructor(maxChars = DEFAULT_RUN_LOG_CHARS) {
    this.#maxChars = maxChars;
  }

  /** Hears one agent event (`chars`: its record's length); `ended`: it ended the run. */
  hear(event: AgentEventBase, chars: number, ended: boolean): void {
    if (event.type === "agent_start") {
      this.clear();
      this.#keeping = true;
    }
    if (!this.#keeping) return;
    this.#chars += chars;
    if (ended || this.#chars > this.#maxChars) this.clear();
    else this.#events.push(event);
  }

  /** The run so far, oldest first, and forgets it (it goes to the one store that attaches). */
  take(): AgentEventBase[] {
    const events = this.#events;
    this.clear();
    return events;
  }

  /** Forgets the run (it ended, the agent exited, or the bridge's replay is about to restate it). */
  clear(): void {
    this.#events = [];
    this.#chars = 0;
    this.#keeping = false;
  }
}
