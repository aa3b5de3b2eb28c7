/** An edit call's finished execution carrying pi's diff (`details.diff`), as the tool card tests and bench give it. */
import type { ToolExecution } from "@pi-elements/core/conversation";

export function editRun(diff: string, path = "a.txt"): ToolExecution {
  return {
    toolCallId: "e1",
    toolName: "edit",
    args: { path },
    status: "done",
    partialResult: undefined,
    result: { content: [{ type: "text", text: `Edited ${path}` }], details: { diff } },
    isError: false,
    durationMs: undefined,
    parentToolCallId: undefined,
    startedAt: undefined,
    endedAt: undefined,
  };
}
