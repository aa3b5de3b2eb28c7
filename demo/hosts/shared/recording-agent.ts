/**
 * What every framework host runs: a PiSession over the in-memory transport, whose agent end asks one select and
 * one confirm the way pi does (and, when asked, a timed input behind them) and records the exact lines it receives
 * back. The host apps render the elements with their framework's own bindings, and beside them the dialog the
 * core names to show (`shownDialog`), read through the framework's own store binding; their tests read `received`
 * to check the responses.
 */
import { createMemoryPair, PiSession } from "@pi-elements/core";

export interface RecordingAgent {
  session: PiSession;
  /** Every line the agent received, verbatim. */
  received: string[];
  /** Called after each received line. */
  onReceive(listener: (lines: readonly string[]) => void): void;
  ask(): void;
  /** Asks a timed input, as a second question that arrives while the first is on screen. */
  askTimed(): void;
}

export function createRecordingAgent(): RecordingAgent {
  const [agentEnd, pageEnd] = createMemoryPair();
  const received: string[] = [];
  const listeners: Array<(lines: readonly string[]) => void> = [];
  agentEnd.addEventListener("record", (event) => {
    received.push(event.value);
    for (const listener of listeners) listener([...received]);
  });
  let next = 1;
  const request = (method: string, fields: Record<string, unknown>) =>
    agentEnd.send(JSON.stringify({ type: "extension_ui_request", id: `host-${next++}`, method, ...fields }));
  return {
    session: new PiSession(pageEnd),
    received,
    onReceive: (listener) => listeners.push(listener),
    ask() {
      request("select", { title: "Pick a framework", options: ["React", "Vue", "Svelte"] });
      request("confirm", { title: "Ship it?", message: "Answers go back as extension_ui_response." });
    },
    askTimed() {
      // Ten minutes: long enough never to expire during a test, short enough to be the earliest deadline.
      request("input", { title: "Quick: which port?", timeout: 600_000 });
    },
  };
}
