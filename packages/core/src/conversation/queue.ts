/**
 * The queue of messages waiting while pi streams, handled as pi's TUI does: Escape takes the queued messages back
 * into the editor and stops the run; a queued message can be taken back to edit. Over RPC that needs `clear_queue`,
 * which pi 1.x has and 0.73.1 lacks ("Unknown command", a failure the session settles though it has no id): these
 * functions never send `clear_queue` to a pi that has not shown it is 1.x, so Escape does not wait for a refusal.
 *
 * Light on purpose (no reducer): pi-prompt in the extension UI's single file uses them.
 */
import type { PiSession } from "../session/pi-session.js";
import type { Queues, SessionInfo } from "./snapshot.js";

/**
 * Whether pi can clear its queues (`clear_queue`, pi 1.x): the session info's `protocol`, learned from pi's answer to
 * `get_available_thinking_levels`, which came in the same 1.x line: 0.73.1 has neither, and until that answer comes
 * the version is not known, so this says false.
 */
export function canClearQueue(info: Pick<SessionInfo, "protocol"> | undefined): boolean {
  return info?.protocol === "1.x";
}

/**
 * What the editor holds after the queued messages came back into it, as pi's TUI puts them: steering messages, then
 * follow-ups, then the text already there, blank ones left out, each apart from the next by an empty line.
 */
export function restoredEditorText(queues: Queues, current: string): string {
  return [...queues.steering, ...queues.followUp, current].filter((text) => text.trim() !== "").join("\n\n");
}

/**
 * Stops the run as Escape does in pi's TUI: on pi 1.x (`clearable`) `clear_queue` first, so that what was queued is
 * not run once the run stops, then `abort`. Resolves with the queues cleared (their text goes back to the editor:
 * `restoredEditorText`) once `abort` is sent; undefined on pi 0.73.1, where the queued messages stay in pi's queue
 * through the abort. The abort itself is not waited for (pi answers it once the agent is idle); a failure of either
 * command is not reported: the run may have ended meanwhile.
 */
export async function stopRun(session: PiSession, clearable: boolean): Promise<Queues | undefined> {
  let cleared: Queues | undefined;
  if (clearable) {
    try {
      cleared = await session.send("clear_queue", {}, { report: false });
    } catch {
      // The queues stay with pi; the run still stops.
    }
  }
  session.send("abort", {}, { report: false }).catch(() => {});
  return cleared;
}

/** What `takeBack` did. */
export interface TakeBackResult {
  /** The text taken out of the queue; undefined when pi no longer had it queued (it was delivered meanwhile). */
  readonly taken: string | undefined;
  /** Messages that were cleared but could not be queued again (pi refused them): give them back to the user too. */
  readonly unsent: readonly string[];
}

/**
 * Takes one queued message back out of pi's queue (pi 1.x). pi has no command to remove one message, so this clears
 * both queues (`clear_queue`) and queues the others again, steering messages with `steer` and follow-ups with
 * `follow_up`, one after the other in their order, so pi's order is kept. The message is found by its text in its
 * queue (the first with that text), not by position: pi may have delivered the one before it meanwhile. Queued
 * images do not survive this (pi's queues carry text only), which is why the text is what comes back. Rejects when
 * `clear_queue` fails (nothing changed then).
 */
export async function takeBack(session: PiSession, queue: keyof Queues, text: string): Promise<TakeBackResult> {
  const cleared = await session.send("clear_queue", {}, { report: false });
  const rest = { steering: [...(cleared.steering ?? [])], followUp: [...(cleared.followUp ?? [])] };
  const index = rest[queue].indexOf(text);
  const taken = index === -1 ? undefined : rest[queue].splice(index, 1)[0];
  const unsent: string[] = [];
  const again = async (command: "steer" | "follow_up", message: string) => {
    try {
      await session.send(command, { message }, { report: false });
    } catch {
      unsent.push(message);
    }
  };
  for (const message of rest.steering) await again("steer", message);
  for (const message of rest.followUp) await again("follow_up", message);
  return { taken, unsent };
}
