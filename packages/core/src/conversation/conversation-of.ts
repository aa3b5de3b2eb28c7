/**
 * `conversationOf(session)`: the session's conversation store, made on the first call and kept for the session's
 * life (a WeakMap: it goes when the session goes). It attaches to the session's path (`PiSession.attach`), applies
 * every agent event and runs the refresh rule (sync.ts) on the answers, opens and bridge messages it hears.
 *
 * It lives apart from PiSession so that a page that shows only the extension UI pays nothing for it: the reducer,
 * its zod/mini schemas and jsonrepair come in with this module, not with the session.
 */
import { excerpt } from "../diagnostics.js";
import { frameSchedule } from "../session/notifier.js";
import type { PiSession, SendOptions } from "../session/pi-session.js";
import type { TransportState } from "../transports/transport.js";
import { attachedConversation, registerConversation } from "./attached.js";
import { ConversationState } from "./conversation-state.js";
import type { ConversationStore } from "./snapshot.js";
import { ConversationSync } from "./sync.js";

/** The bound on a probe (a command pi may not know) on the session's clock: no pi leaves it pending for ever. */
const PROBE_TIMEOUT_MS = 30_000;

export interface ConversationOptions {
  /**
   * How the store's notifications are batched. Default: once per animation frame where there are frames (a browser),
   * once per burst elsewhere. Taken when the store is made (the first call for a session); later calls return that
   * store as it is.
   */
  schedule?: (flush: () => void) => void;
}

/**
 * The conversation store of `session`: committed messages, the message streaming, tool runs, the run's state, the
 * queues and the session info (model, thinking level, stats). `getSnapshot()` and `subscribe(listener)`, both usable
 * unbound. The same store on every call for a session.
 *
 * The first call is a connect when the transport is open: the store asks pi for its state and history then, and again
 * under the refresh rule (sync.ts, and the README). Events before the first call are not kept; the history brings back
 * what was committed.
 */
export function conversationOf(session: PiSession, options: ConversationOptions = {}): ConversationStore {
  let store = attachedConversation(session);
  if (!store) {
    store = attachConversation(session, options);
    registerConversation(session, store);
  }
  return store;
}

function attachConversation(session: PiSession, options: ConversationOptions): ConversationStore {
  // The session's `diagnose`, set by `attach` below; the store reports nothing before it exists.
  let diagnose: (problem: string, message: unknown) => void = () => {};
  const state = new ConversationState({
    clock: session.clock,
    schedule: options.schedule ?? frameSchedule,
    onInvalidMessage: (problem, message) => diagnose(problem, message),
  });
  const sync = new ConversationSync(state, (type, probe) => {
    (session.send as (type: string, params: object, options: SendOptions) => Promise<unknown>)(
      type,
      {},
      probe ? { report: false, timeout: PROBE_TIMEOUT_MS } : { report: false },
    ).catch((error: unknown) => sync.onFailed(type, error));
  });
  /** The store's `mark()` when each command in flight was sent, for the merge rule of `get_messages`. */
  const marks = new WeakMap<object, number>();
  let connection: TransportState = session.ui.getSnapshot().connection;
  /** Whether the transport was open before and then was not: the next open is a reconnect. */
  let gap = false;
  const attachment = session.attach({
    agentEvent(event) {
      state.apply(event);
      sync.onEvent(event);
    },
    bridgeMessage(message) {
      // A new pi process: a new session, whatever this page showed before.
      if (message.type === "pi-elements/agent_start") {
        state.reset();
        // Learned again from the new process (the bridge's command may now run another pi).
        state.setInfo({ protocol: undefined });
        sync.connect(true);
      }
    },
    commandSent(command) {
      marks.set(command, state.mark());
      if (command.type === "bash") state.shellSent(command.id, command.command);
    },
    commandResult(command, data) {
      if (command.type === "bash") state.shellAnswered(command.id, true, data);
      sync.onResult(command, data, marks.get(command) ?? 0);
    },
    otherResult(command, data) {
      sync.onOtherResult(command, data);
    },
    commandFailed(command) {
      if (command.type === "bash") state.shellAnswered(command.id, false);
    },
    run(run) {
      state.setRun(run);
    },
    connection(next) {
      const wasOpen = connection === "open";
      connection = next;
      if (next === "open" && !wasOpen) {
        sync.connect(gap);
        gap = false;
      } else if (wasOpen && next !== "open") gap = true;
    },
  });
  diagnose = (problem, message) =>
    attachment.diagnose({
      code: "invalid-message",
      message: `pi sent an ${problem}`,
      excerpt: excerpt(safeJson(message)),
    });
  if (connection === "open") sync.connect(false);
  return state;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
