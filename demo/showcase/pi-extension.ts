/**
 * The showcase as a real pi extension, for the live page: `pi --mode rpc -e demo/showcase/pi-extension.ts`.
 * It adapts pi's `ctx.ui` to the showcase's `ShowcaseUi` and registers each command. It also guards the model's
 * bash calls as pi's permission-gate example does: a command that deletes (`rm`) waits for the user's yes in a
 * confirm dialog, and a no blocks it, with the reason as the tool's result (the demo's scripted model asks for one
 * when told to clean up).
 */
import type { ExtensionAPI, ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import { commands, onSessionStart, type ShowcaseUi } from "./commands.js";

function adapt(ui: ExtensionUIContext): ShowcaseUi {
  return {
    select: (title, options, opts) => ui.select(title, options, opts),
    confirm: (title, message, opts) => ui.confirm(title, message, opts),
    input: (title, placeholder, opts) => ui.input(title, placeholder, opts),
    editor: (title, prefill) => ui.editor(title, prefill),
    notify: (message, type) => ui.notify(message, type),
    setStatus: (key, text) => ui.setStatus(key, text),
    setWidget: (key, lines, opts) => ui.setWidget(key, lines, opts),
    setTitle: (title) => ui.setTitle(title),
    setEditorText: (text) => ui.setEditorText(text),
    fg: (color, text) => ui.theme.fg(color, text),
  };
}

export default function showcase(pi: ExtensionAPI): void {
  pi.on("session_start", async (_event, ctx) => onSessionStart(adapt(ctx.ui)));
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return undefined;
    const command = String(event.input["command"] ?? "");
    if (!/\brm\b/.test(command)) return undefined;
    const ok = await ctx.ui.confirm("Allow this command?", `${command}\n\nIt deletes files in ${ctx.cwd}.`);
    return ok ? undefined : { block: true, reason: `The user said no to: ${command}` };
  });
  for (const [name, command] of Object.entries(commands)) {
    pi.registerCommand(name, {
      description: command.description,
      handler: async (args, ctx) => command.run(adapt(ctx.ui), args),
    });
  }
}
