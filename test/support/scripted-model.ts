/**
 * A scripted OpenAI-compatible chat-completions server on loopback, for tests that need a model turn. pi talks to it
 * through its own `models.json` (provider `api: "openai-completions"`, see `piModelsJson`): each request gets the next
 * scripted reply, streamed as server-sent events the way OpenAI's API streams them (text deltas, tool-call deltas,
 * a finish reason, usage, `[DONE]`). Tool calls are real: pi executes them and sends their results in its next
 * request, which the test can read from `requests`.
 *
 * A reply can also think first (`reasoning_content` deltas, which pi's openai-completions provider reads as thinking),
 * report its own usage in the final chunk, stream slowly (`delayMs` between chunks, so a client can steer or abort
 * while it streams; a reply whose request pi aborts stops streaming), end with a failing finish reason (an error
 * chunk: pi fails the turn mid-stream) or fail as a whole with an HTTP error.
 *
 * Defined outcomes for anything off-script: a request after the script ran out gets a 500 with an OpenAI-shaped
 * error (pi reports it as a failed turn), a path other than /v1/chat/completions a 404, a body that is not JSON a 400.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedToolCall {
  name: string;
  /** The tool's arguments; sent as a JSON string, in a few deltas, as a real model streams them. */
  arguments: Record<string, unknown>;
}

export interface ScriptedReply {
  /** Reasoning, streamed before the text as `reasoning_content` deltas of a few characters. */
  thinking?: string;
  /** Assistant text, streamed in chunks of a few characters. */
  text?: string;
  toolCalls?: readonly ScriptedToolCall[];
  /** The final chunk's usage. Default: 10 prompt tokens, 5 completion tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens?: number } };
  /** Overrides the finish reason (default `tool_calls` when there are tool calls, else `stop`), e.g. `network_error`. */
  finishReason?: string;
  /** Milliseconds between two streamed chunks. Default 0: the whole reply is written at once. */
  delayMs?: number;
  /** Answer with this HTTP status and an OpenAI-shaped error instead of a stream. */
  httpError?: { status: number; message: string; type?: string };
}

/** What a reply may depend on: the request pi sent (its messages carry earlier tool results). */
export type Script = readonly ScriptedReply[] | ((request: ChatRequest, index: number) => ScriptedReply | undefined);

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[] }>;
  tools?: Array<{ type: string; function: { name: string } }>;
  [key: string]: unknown;
}

export interface ScriptedModel {
  /** `http://127.0.0.1:PORT/v1`, the `baseUrl` for pi's models.json. */
  readonly baseUrl: string;
  /** Every chat request received, in order. */
  readonly requests: readonly ChatRequest[];
  /** Replaces the script; the request count starts again at 0. */
  setScript(script: Script): void;
  close(): Promise<void>;
}

export const SCRIPTED_PROVIDER = "scripted";
export const SCRIPTED_MODEL_ID = "scripted-model";

/** The models.json that points pi at `model` (write it to `$PI_CODING_AGENT_DIR/models.json`). */
export function piModelsJson(model: Pick<ScriptedModel, "baseUrl">, options: { reasoning?: boolean } = {}): string {
  return JSON.stringify({
    providers: {
      [SCRIPTED_PROVIDER]: {
        baseUrl: model.baseUrl,
        api: "openai-completions",
        apiKey: "scripted-test-key",
        models: [
          {
            id: SCRIPTED_MODEL_ID,
            name: "Scripted test model",
            contextWindow: 128000,
            maxTokens: 4096,
            ...(options.reasoning === true ? { reasoning: true } : {}),
          },
        ],
      },
    },
  });
}

/** The models of `piModelChoicesJson`, as `provider/id`: the first is the one pi starts with (`--model`). */
export const SCRIPTED_MODEL_CHOICES = ["scripted/scripted-model", "scripted/scripted-plain", "scripted-b/b-model"];

/**
 * A models.json with a choice, all answered by `model`: the scripted model (reasoning), a plain one beside it, and a
 * second provider's reasoning model, for tests that switch models or thinking levels.
 */
export function piModelChoicesJson(model: Pick<ScriptedModel, "baseUrl">): string {
  const common = { baseUrl: model.baseUrl, api: "openai-completions", apiKey: "scripted-test-key" };
  return JSON.stringify({
    providers: {
      [SCRIPTED_PROVIDER]: {
        ...common,
        models: [
          {
            id: SCRIPTED_MODEL_ID,
            name: "Scripted test model",
            contextWindow: 128000,
            maxTokens: 4096,
            reasoning: true,
          },
          { id: "scripted-plain", name: "Scripted plain model", contextWindow: 32000, maxTokens: 2048 },
        ],
      },
      "scripted-b": {
        ...common,
        models: [
          { id: "b-model", name: "Second provider model", contextWindow: 1000000, maxTokens: 8192, reasoning: true },
        ],
      },
    },
  });
}

export async function startScriptedModel(initial: Script = []): Promise<ScriptedModel> {
  let script: Script = initial;
  let served = 0;
  const requests: ChatRequest[] = [];

  const server: Server = createServer((request, response) => {
    void handle(request).then(
      async ({ status, body, events, delayMs }) => {
        if (events === undefined) {
          response.writeHead(status, { "Content-Type": "application/json" });
          response.end(JSON.stringify(body));
          return;
        }
        response.writeHead(200, {
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-cache",
          Connection: "keep-alive",
        });
        for (const [i, event] of events.entries()) {
          if (delayMs > 0 && i > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          // pi aborted the request (its connection closed): stop streaming.
          if (response.destroyed) return;
          response.write(`data: ${event}\n\n`);
        }
        response.end();
      },
      () => {
        response.writeHead(500).end();
      },
    );
  });

  const handle = async (
    request: IncomingMessage,
  ): Promise<{ status: number; body?: unknown; events?: string[]; delayMs: number }> => {
    const path = new URL(request.url ?? "/", "http://model.invalid").pathname;
    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      return { status: 404, body: openAiError(`No route ${request.method} ${path}`, "not_found"), delayMs: 0 };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let chat: ChatRequest;
    try {
      chat = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest;
    } catch {
      return { status: 400, body: openAiError("The body is not JSON", "invalid_request_error"), delayMs: 0 };
    }
    requests.push(chat);
    const index = served++;
    const reply = typeof script === "function" ? script(chat, index) : script[index];
    if (reply === undefined) {
      return { status: 500, body: openAiError(`The script has no reply #${index + 1}`, "server_error"), delayMs: 0 };
    }
    if (reply.httpError !== undefined) {
      const { status, message, type = "invalid_request_error" } = reply.httpError;
      return { status, body: openAiError(message, type), delayMs: 0 };
    }
    return { status: 200, events: streamEvents(chat.model, index, reply), delayMs: reply.delayMs ?? 0 };
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next;
      served = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The SSE data lines of one streamed reply. */
function streamEvents(model: string, index: number, reply: ScriptedReply): string[] {
  const id = `chatcmpl-scripted-${index + 1}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: 1_700_000_000 + index,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    });
  const events = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces(reply.thinking ?? "", 8)) events.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(reply.text ?? "", 8)) events.push(chunk({ content: piece }));
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.arguments);
    const callId = `call_${index + 1}_${i + 1}`;
    events.push(
      chunk({ tool_calls: [{ index: i, id: callId, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of pieces(args, 16))
      events.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
  }
  const finish = reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
  events.push(chunk({}, finish));
  events.push(
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: 1_700_000_000 + index,
      model,
      choices: [],
      usage: {
        total_tokens: (reply.usage?.prompt_tokens ?? 10) + (reply.usage?.completion_tokens ?? 5),
        ...(reply.usage ?? { prompt_tokens: 10, completion_tokens: 5 }),
      },
    }),
  );
  events.push("[DONE]");
  return events;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function openAiError(message: string, type: string) {
  return { error: { message, type, code: null, param: null } };
}
