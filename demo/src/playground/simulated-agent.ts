/**
 * A stand-in for `pi --mode rpc` that runs inside the page, for the playground: it answers the commands a UI
 * needs (get_commands, get_state, prompt, steer, follow_up, abort) and runs the showcase commands with the same
 * protocol a real pi speaks over any Transport — including pi's habits: a timed dialog resolves its default and
 * sends nothing, late or unknown answers are ignored, a plain prompt streams a short reply as message_update events.
 */
import type { Transport } from "@pi-elements/core";
import { type Color, commands, onSessionStart, type ShowcaseUi } from "../../showcase/commands.js";

/** pi's dark theme, as 24-bit SGR like `ctx.ui.theme.fg` emits. */
const COLORS: Record<Color, [number, number, number]> = {
  accent: [138, 190, 183],
  success: [181, 189, 104],
  warning: [255, 255, 0],
  error: [204, 102, 102],
  muted: [128, 128, 128],
  dim: [102, 102, 102],
};

type Pending = (response: Record<string, unknown> | undefined) => void;

export class SimulatedAgent {
  readonly #transport: Transport;
  readonly #pending = new Map<string, Pending>();
  #nextId = 1;
  #streaming = false;
  #reply: ReturnType<typeof setTimeout> | undefined;

  constructor(transport: Transport) {
    this.#transport = transport;
    transport.addEventListener("record", (event) => this.#receive(event.value));
    onSessionStart(this.#ui);
  }

  #emit(message: Record<string, unknown>): void {
    this.#transport.send(JSON.stringify(message));
  }

  #request(method: string, fields: Record<string, unknown>): void {
    this.#emit({ type: "extension_ui_request", id: `sim-${this.#nextId++}`, method, ...fields });
  }

  /** Sends a dialog request and waits for its answer; on timeout resolves undefined and sends nothing, as pi. */
  #dialog(
    method: string,
    fields: Record<string, unknown>,
    timeout?: number,
  ): Promise<Record<string, unknown> | undefined> {
    const id = `sim-${this.#nextId++}`;
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settle: Pending = (response) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(response);
      };
      this.#pending.set(id, settle);
      if (timeout) timer = setTimeout(() => settle(undefined), timeout);
      this.#emit({ type: "extension_ui_request", id, method, ...fields, ...(timeout ? { timeout } : {}) });
    });
  }

  readonly #ui: ShowcaseUi = {
    select: async (title, options, opts) =>
      answerValue(await this.#dialog("select", { title, options }, opts?.timeout)),
    confirm: async (title, message, opts) =>
      (await this.#dialog("confirm", { title, message }, opts?.timeout))?.confirmed === true,
    input: async (title, placeholder, opts) =>
      answerValue(await this.#dialog("input", { title, placeholder }, opts?.timeout)),
    editor: async (title, prefill) => answerValue(await this.#dialog("editor", { title, prefill })),
    notify: (message, notifyType = "info") => this.#request("notify", { message, notifyType }),
    setStatus: (statusKey, statusText) => this.#request("setStatus", { statusKey, statusText }),
    setWidget: (widgetKey, widgetLines, opts) =>
      this.#request("setWidget", { widgetKey, widgetLines, widgetPlacement: opts?.placement }),
    setTitle: (title) => this.#request("setTitle", { title }),
    setEditorText: (text) => this.#request("set_editor_text", { text }),
    fg: (color, text) => `\u001b[38;2;${COLORS[color].join(";")}m${text}\u001b[39m`,
  };

  #receive(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.#emit({ type: "response", command: "parse", success: false, error: "Failed to parse command" });
      return;
    }
    if (message.type === "extension_ui_response") {
      // Late or unknown ids are ignored, as pi does.
      this.#pending.get(String(message.id))?.(message);
      return;
    }
    const id = typeof message.id === "string" ? message.id : undefined;
    const ok = (data?: unknown) =>
      this.#emit({
        id,
        type: "response",
        command: message.type,
        success: true,
        ...(data === undefined ? {} : { data }),
      });
    switch (message.type) {
      case "get_commands":
        ok({
          commands: Object.entries(commands).map(([name, c]) => ({
            name,
            description: c.description,
            source: "extension",
          })),
        });
        return;
      case "get_state":
        ok({
          thinkingLevel: "off",
          isStreaming: this.#streaming,
          isCompacting: false,
          steeringMode: "one-at-a-time",
          followUpMode: "one-at-a-time",
          sessionId: "simulated",
          autoCompactionEnabled: false,
          messageCount: 0,
          pendingMessageCount: 0,
        });
        return;
      case "prompt":
      case "steer":
      case "follow_up":
        ok();
        this.#prompt(String(message.message ?? ""));
        return;
      case "abort":
        this.#stopReply();
        ok();
        return;
      default:
        this.#emit({
          id,
          type: "response",
          command: message.type,
          success: false,
          error: `Unknown command: ${String(message.type)}`,
        });
    }
  }

  #prompt(text: string): void {
    const slash = /^\/(\S+)\s*(.*)$/s.exec(text.trim());
    if (slash) {
      const command = commands[slash[1] ?? ""];
      if (command) void command.run(this.#ui, slash[2] ?? "");
      else this.#ui.notify(`Unknown command: /${slash[1]}`, "error");
      return;
    }
    this.#streamReply(`The playground has no model. Try a slash command such as /pick or /gate. (You said: ${text})`);
  }

  /** Streams a reply word by word, as message_update text deltas between agent_start and agent_end. */
  #streamReply(reply: string): void {
    this.#stopReply();
    this.#streaming = true;
    this.#emit({ type: "agent_start" });
    const words = reply.split(/(?<= )/);
    let index = 0;
    const tick = () => {
      const delta = words[index++];
      if (delta === undefined) return this.#stopReply();
      this.#emit({
        type: "message_update",
        message: { role: "assistant" },
        assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta },
      });
      this.#reply = setTimeout(tick, 40);
    };
    tick();
  }

  #stopReply(): void {
    clearTimeout(this.#reply);
    if (!this.#streaming) return;
    this.#streaming = false;
    this.#emit({ type: "agent_end", messages: [] });
  }
}

function answerValue(response: Record<string, unknown> | undefined): string | undefined {
  return typeof response?.value === "string" ? response.value : undefined;
}
