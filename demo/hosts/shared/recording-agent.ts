/**
 * What every framework host runs: a PiSession over the in-memory transport, whose agent end asks one select and
 * one confirm the way pi does and records the exact lines it receives back. The host apps render the elements with
 * their framework's own bindings; their tests read `received` to check the responses.
 */
import { createMemoryPair, PiSession } from "@pi-elements/core";

export interface RecordingAgent {
  session: PiSession;
  /** Every line the agent received, verbatim. */
  received: string[];
  /** Called after each received line. */
  onReceive(listener: (lines: readonly string[]) => void): void;
  ask(): void;
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
  };
}
