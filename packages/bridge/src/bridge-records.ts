/**
 * The records the bridge itself sends, in the `pi-elements/` namespace (see PROTOCOL.md), as ordinary JSONL lines:
 * a frame is always whole records.
 */
import type { PendingDialog } from "@pi-elements/core";
import type { AgentExitInfo } from "./agent-process.js";
import type { RestartPolicy } from "./agent-supervisor.js";

export const record = (value: unknown): string => JSON.stringify(value);

export const HELLO = record({ type: "pi-elements/hello", protocol: 1 });

/** Replay frames are split at about this size, well under a client's usual 8 MiB frame limit. */
export const REPLAY_FRAME_CHARS = 1024 * 1024;

/** One `dialog_closed` line per dialog. */
export function closedFrame(dialogs: ReadonlyArray<Pick<PendingDialog, "id">>, reason: string): string {
  return dialogs.map((dialog) => `${record({ type: "pi-elements/dialog_closed", id: dialog.id, reason })}\n`).join("");
}

/** The exit report; `restart` is the bridge's policy, so that a page knows whether its restart request can help. */
export function exitRecord(info: AgentExitInfo, restart: RestartPolicy): string {
  return record({
    type: "pi-elements/agent_exit",
    code: info.code,
    signal: info.signal,
    stderrTail: info.stderrTail,
    restart,
  });
}

/** A problem the agent reported on its stderr, in pi's diagnostic form (see `diagnosticOf`). */
export function diagnosticRecord(level: "warning" | "error", message: string): string {
  return record({ type: "pi-elements/agent_diagnostic", level, message });
}

/**
 * pi's diagnostic form on stderr: a line `Warning: …` or `Error: …` (yellow or red when pi thinks it writes to a
 * terminal; the colour is dropped). Undefined for any other line: pi's and its extensions' other output stays in the
 * log and the exit report.
 */
export function diagnosticOf(line: string): { level: "warning" | "error"; message: string } | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: SGR colour codes, as chalk writes them.
  const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
  const match = /^(Warning|Error): (\S.*)$/.exec(plain);
  if (!match) return undefined;
  return { level: match[1] === "Error" ? "error" : "warning", message: (match[2] as string).trim() };
}

export function agentStartFrame(pid: number): string {
  // Clients drop the old agent's statuses and widgets: hello, then the (empty) state of the new one.
  return `${record({ type: "pi-elements/agent_start", pid })}\n${HELLO}\n`;
}

/** Records as LF-terminated lines, in frames of about `maxChars` (a longer record gets a frame of its own). */
export function framesOf(records: readonly string[], maxChars = REPLAY_FRAME_CHARS): string[] {
  const frames: string[] = [];
  let current = "";
  for (const line of records) {
    if (current.length > 0 && current.length + line.length > maxChars) {
      frames.push(current);
      current = "";
    }
    current += `${line}\n`;
  }
  frames.push(current);
  return frames;
}

let noticeSeq = 0;

/**
 * A warning notify for a client whose answer reached no pending dialog, as an ordinary extension_ui_request (like
 * the replay's, with a fresh id), so every client shows it with no code of its own.
 */
export function unheardAnswerNotice(): string {
  noticeSeq += 1;
  return record({
    type: "extension_ui_request",
    id: `pi-elements-notice-${noticeSeq}`,
    method: "notify",
    notifyType: "warning",
    message:
      "Your answer did not reach the agent: it was no longer waiting for it (the dialog was answered elsewhere or " +
      "expired, or the agent or the bridge restarted).",
  });
}
