/**
 * One run of the agent process: spawned with an argument array (no shell), strict JSONL on stdout (framed at the
 * byte level by `JsonlFramer`), a write queue
 * on stdin that honours backpressure, stderr forwarded line by line and its tail kept for the exit report.
 *
 * The agent runs in its own process group, so stopping it also stops whatever it spawned (pi's bash tool), and a
 * Ctrl+C in the bridge's terminal reaches only the bridge, which then stops the agent in order.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { type Clock, realClock } from "@pi-elements/core";
import { backgroundTimeout } from "./clock-timers.js";
import { JsonlFramer } from "./jsonl-frames.js";

/**
 * Milliseconds the bridge keeps reading the agent's stdout and stderr after the process exited, when something
 * else still holds them open; then it reports the exit.
 */
export const DEFAULT_STDIO_DRAIN_MS = 500;

/** The default longest stderr line kept (logged, and in the exit report); the rest of a longer line is cut. */
export const DEFAULT_STDERR_LINE_CHARS = 2000;

export interface AgentCommand {
  command: string;
  args: readonly string[];
}

export interface AgentExitInfo {
  code: number | null;
  signal: string | null;
  /** The last lines the agent wrote to stderr, oldest first. */
  stderrTail: string[];
}

export interface AgentProcessOptions extends AgentCommand {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Longest stdout record accepted, in bytes; longer ones are dropped (and logged). Default 8 MiB. */
  maxRecordBytes?: number;
  /** How many stderr lines to keep for the exit report. Default 20. */
  stderrTailLines?: number;
  /** Longest stderr line kept, in characters; a longer one is cut, marked with how much was cut. Default 2000. */
  stderrLineChars?: number;
  /**
   * The whole stdout records of one read (one call per read, so a burst written at once stays one frame):
   * LF-terminated UTF-8, given as parts whose concatenation is the frame (see `JsonlFramer`).
   */
  onFrame: (parts: Buffer[]) => void;
  onStderrLine?: (line: string) => void;
  /**
   * Milliseconds to keep reading stdout and stderr after the process exited while something it started holds
   * them open. Default 500.
   */
  stdioDrainMs?: number;
  /** What `stdioDrainMs` and the stop grace run on. Default: real time. */
  clock?: Clock;
  /** Called once when the process is gone (or could not be spawned). */
  onExit: (info: AgentExitInfo) => void;
  /** Called when the stdin queue crosses its high-water mark (true) and when it has drained (false). */
  onBackpressure?: (blocked: boolean) => void;
  /** Bytes queued for stdin above which `onBackpressure(true)` fires. Default 8 MiB. */
  highWaterMark?: number;
}

export class AgentProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #options: AgentProcessOptions;
  readonly #clock: Clock;
  readonly #stderrTail: string[] = [];
  readonly #queue: string[] = [];
  #queuedBytes = 0;
  #waitingForDrain = false;
  #blocked = false;
  /** The process has exited (or could not be spawned). */
  #exited = false;
  /** Its exit has been reported (`onExit`, `exited`). */
  #finished = false;
  readonly exited: Promise<AgentExitInfo>;

  constructor(options: AgentProcessOptions) {
    this.#options = options;
    this.#clock = options.clock ?? realClock;
    this.#child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      detached: true,
      windowsHide: true,
    });
    let resolveExited: (info: AgentExitInfo) => void = () => {};
    this.exited = new Promise((resolve) => {
      resolveExited = resolve;
    });

    const stdout = new JsonlFramer({
      ...(options.maxRecordBytes === undefined ? {} : { maxRecordBytes: options.maxRecordBytes }),
      onOversized: (bytes) => this.#stderrLine(`[pi-bridge] dropped an agent stdout record of ${bytes} bytes`),
    });
    const onStdout = (chunk: Buffer) => {
      const parts = stdout.push(chunk);
      if (parts.length > 0) options.onFrame(parts);
    };
    const endStdout = () => {
      const parts = stdout.end();
      if (parts.length > 0) options.onFrame(parts);
    };
    this.#child.stdout.on("data", onStdout);
    this.#child.stdout.on("end", endStdout);

    const stderr = new StderrLines(options.stderrLineChars ?? DEFAULT_STDERR_LINE_CHARS, (line) =>
      this.#stderrLine(line),
    );
    const onStderr = (chunk: Buffer) => stderr.push(chunk);
    const endStderr = () => stderr.end();
    this.#child.stderr.on("data", onStderr);
    this.#child.stderr.on("end", endStderr);

    // EPIPE after the agent died is expected; the exit handler reports the death.
    this.#child.stdin.on("error", () => {});
    this.#child.stdin.on("drain", () => this.#drain());

    /** The post-exit read window's timer, while it runs. */
    let drain: unknown;
    const finish = (code: number | null, signal: string | null) => {
      if (this.#finished) return;
      this.#finished = true;
      if (drain !== undefined) this.#clock.clearTimeout(drain);
      this.#gone();
      const info = { code, signal, stderrTail: [...this.#stderrTail] };
      resolveExited(info);
      options.onExit(info);
    };
    // 'close' waits for stdio to end, so every stdout record is delivered before the exit report.
    this.#child.on("close", (code, signal) => finish(code, signal));
    this.#child.on("exit", (code, signal) => {
      this.#gone();
      // Whatever the agent started and left behind in its group would be orphaned: end it with the agent.
      if (this.#child.pid !== undefined) killGroup(this.#child.pid, "SIGKILL");
      // Something outside the group (a `setsid` child, a daemon) may hold the agent's stdout or stderr, and then
      // 'close' never comes: what the agent wrote before it died is in the pipes already, so after a moment to
      // read it, the bridge stops listening to them and reports the exit. The timer, then one turn of the event
      // loop (setImmediate runs after the I/O a late timer may have jumped ahead of), then the cut.
      if (this.#finished) return;
      drain = backgroundTimeout(
        this.#clock,
        () =>
          setImmediate(() => {
            if (this.#finished) return;
            this.#stderrLine(
              "[pi-bridge] the agent exited, but something it started still holds its stdout or stderr " +
                "(outside its process group, so it keeps running); the bridge no longer reads them",
            );
            this.#child.stdout.off("data", onStdout).off("end", endStdout);
            this.#child.stderr.off("data", onStderr).off("end", endStderr);
            endStdout();
            endStderr();
            for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) stream.destroy();
            finish(code, signal);
          }),
        options.stdioDrainMs ?? DEFAULT_STDIO_DRAIN_MS,
      );
    });
    this.#child.on("error", (error) => {
      this.#stderrLine(`[pi-bridge] could not start ${options.command}: ${error.message}`);
      // A spawn failure emits no 'close' when no process ever existed.
      if (this.#child.pid === undefined) finish(null, null);
    });
  }

  /** The process is gone (or never was): nothing more is written to it, and it is not signalled again. */
  #gone(): void {
    if (this.#exited) return;
    this.#exited = true;
    this.#queue.length = 0;
    this.#queuedBytes = 0;
    this.#setBlocked(false);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** False from the moment the process exits, possibly a moment before its exit is reported. */
  get running(): boolean {
    return !this.#exited;
  }

  /** The exit has been reported (`onExit` called, `exited` resolved). */
  get finished(): boolean {
    return this.#finished;
  }

  /** Bytes accepted by `write` that the pipe has not taken yet. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** Writes one record (without its LF). Never blocks: while the pipe is full, records wait in order. */
  write(record: string): void {
    if (this.#exited) return;
    const line = `${record}\n`;
    if (this.#waitingForDrain) {
      this.#queue.push(line);
      this.#queuedBytes += Buffer.byteLength(line);
      this.#setBlocked(this.#queuedBytes > (this.#options.highWaterMark ?? 8 * 1024 * 1024));
      return;
    }
    if (!this.#child.stdin.write(line)) this.#waitingForDrain = true;
  }

  #drain(): void {
    this.#waitingForDrain = false;
    while (this.#queue.length > 0) {
      const line = this.#queue.shift() as string;
      this.#queuedBytes -= Buffer.byteLength(line);
      if (!this.#child.stdin.write(line)) {
        this.#waitingForDrain = true;
        break;
      }
    }
    if (this.#queue.length === 0) this.#setBlocked(false);
  }

  #setBlocked(blocked: boolean): void {
    if (blocked === this.#blocked) return;
    this.#blocked = blocked;
    this.#options.onBackpressure?.(blocked);
  }

  #stderrLine(line: string): void {
    this.#stderrTail.push(line);
    if (this.#stderrTail.length > (this.#options.stderrTailLines ?? 20)) this.#stderrTail.shift();
    this.#options.onStderrLine?.(line);
  }

  /** Sends a signal to the agent's whole process group. */
  signal(signal: NodeJS.Signals): void {
    const pid = this.#child.pid;
    if (pid === undefined || this.#exited) return;
    killGroup(pid, signal);
  }

  /**
   * Stops the agent: closes its stdin (pi shuts down on end of input) and sends SIGTERM, then SIGKILL if it is
   * still there after `graceMs`. Resolves when it has exited.
   */
  async stop(graceMs = 3000): Promise<AgentExitInfo> {
    if (!this.#finished && !this.#exited) {
      this.#child.stdin.end();
      this.signal("SIGTERM");
      const timer = backgroundTimeout(this.#clock, () => this.signal("SIGKILL"), graceMs);
      await this.exited;
      this.#clock.clearTimeout(timer);
    }
    return this.exited;
  }
}

/**
 * Splits stderr into lines, keeping at most `maxChars` of each: a line without end holds at most that much memory,
 * and the exit report (the tail) stays small however long the agent's lines are.
 */
export class StderrLines {
  readonly #maxChars: number;
  readonly #onLine: (line: string) => void;
  readonly #utf8 = new TextDecoder();
  #line = "";
  #cut = 0;

  constructor(maxChars: number, onLine: (line: string) => void) {
    this.#maxChars = maxChars;
    this.#onLine = onLine;
  }

  push(chunk: Uint8Array): void {
    this.#take(this.#utf8.decode(chunk, { stream: true }));
  }

  end(): void {
    this.#take(this.#utf8.decode());
    if (this.#line !== "" || this.#cut > 0) this.#emit();
  }

  #take(text: string): void {
    let start = 0;
    for (;;) {
      const lf = text.indexOf("\n", start);
      this.#append(text, start, lf === -1 ? text.length : lf);
      if (lf === -1) return;
      this.#emit();
      start = lf + 1;
    }
  }

  #append(text: string, from: number, to: number): void {
    const room = this.#maxChars - this.#line.length;
    const take = Math.min(room, to - from);
    if (take > 0) this.#line += text.slice(from, from + take);
    this.#cut += to - from - take;
  }

  #emit(): void {
    const line = this.#line.endsWith("\r") ? this.#line.slice(0, -1) : this.#line;
    if (line === "" && this.#cut === 0) return;
    this.#onLine(this.#cut > 0 ? `${line}… [${this.#cut} more characters cut]` : line);
    this.#line = "";
    this.#cut = 0;
  }
}

/**
 * `text` with every character that could drive a terminal written as an escape: C0 controls but tab (so ESC,
 * which starts clipboard writes, links and screen clears, and a bare CR, which would go back over the line's
 * prefix) and DEL and C1 controls (U+0080 to U+009F, which some terminals take as CSI, OSC and the like) as
 * `\xHH`, and the bidirectional-text controls as `\uHHHH`. Backslashes stay as they are: this keeps a terminal
 * safe, it does not make the text reversible.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it finds.
const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
