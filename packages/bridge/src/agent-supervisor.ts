/**
 * The agent process over time: started once at the beginning, restarted on request (stopped first if it runs), or
 * by itself under the "always" policy after it exits, with backoff. Only the current process is heard: output or
 * an exit from one that was replaced is ignored.
 */
import { Backoff, type BackoffOptions, type Clock } from "@pi-elements/core";
import { type AgentCommand, type AgentExitInfo, AgentProcess, escapeControls } from "./agent-process.js";
import type { Guard } from "./guard.js";

export type RestartPolicy = "never" | "on-request" | "always";

/** Restart delays of the bridge: 0.5 s doubling to 30 s, no jitter, back to 0.5 s after a 10 s run. */
export const RESTART_BACKOFF: BackoffOptions = { initialDelay: 500, maxDelay: 30_000, jitter: 0, resetAfter: 10_000 };

export interface AgentSupervisorOptions {
  command: AgentCommand;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  policy: RestartPolicy;
  /** Overrides of `RESTART_BACKOFF`. */
  backoff?: BackoffOptions;
  /** Milliseconds between SIGTERM and SIGKILL when stopping. Default: AgentProcess's. */
  stopGraceMs?: number;
  /** Restart delays, `resetAfter`, and the agent's stop grace and post-exit read window run on it. */
  clock: Clock;
  /** A new process was spawned (pid undefined: it could not be; its exit follows). */
  onStart: (pid: number | undefined) => void;
  onFrame: (agent: AgentProcess, parts: Buffer[]) => void;
  /** A line the current agent wrote to its stderr (also logged). */
  onStderrLine?: (line: string) => void;
  onExit: (info: AgentExitInfo) => void;
  /** The agent's stdin crossed its high-water mark (true) or drained (false). */
  onBackpressure: (blocked: boolean) => void;
  log: (line: string) => void;
  guarded: Guard;
}

export class AgentSupervisor {
  readonly #options: AgentSupervisorOptions;
  readonly #backoff: Backoff;
  #agent: AgentProcess | undefined;
  #lastExit: AgentExitInfo | undefined;
  #closing = false;
  #restartTimer: unknown;
  #restarting: Promise<void> | undefined;
  #startWaiters: Array<(pid: number) => void> = [];

  /** Throws a RangeError for backoff options out of range. */
  constructor(options: AgentSupervisorOptions) {
    this.#options = options;
    this.#backoff = new Backoff({ ...RESTART_BACKOFF, ...options.backoff });
  }

  /** The current process, running or not (undefined while a restart stops the old one). */
  get current(): AgentProcess | undefined {
    return this.#agent;
  }

  /** The current process's pid while it runs. */
  get pid(): number | undefined {
    return this.#agent?.running ? this.#agent.pid : undefined;
  }

  /** How the last process ended, until the next one starts. */
  get lastExit(): AgentExitInfo | undefined {
    return this.#lastExit;
  }

  /** Resolves when the current agent has started (immediately if it runs). */
  started(): Promise<number> {
    const pid = this.pid;
    if (pid !== undefined) return Promise.resolve(pid);
    return new Promise((resolve) => this.#startWaiters.push(resolve));
  }

  start(): void {
    const { command, guarded, log } = this.#options;
    this.#lastExit = undefined;
    const current: AgentProcess = new AgentProcess({
      ...command,
      ...(this.#options.cwd === undefined ? {} : { cwd: this.#options.cwd }),
      ...(this.#options.env === undefined ? {} : { env: this.#options.env }),
      clock: this.#options.clock,
      onFrame: (parts) => {
        if (current === this.#agent) guarded("relaying agent output", () => this.#options.onFrame(current, parts));
      },
      // Escaped: the agent's text reaches the operator's terminal, where it must not act or pass for the bridge's.
      onStderrLine: (line) => {
        log(`[agent] ${escapeControls(line)}`);
        if (current === this.#agent) guarded("relaying agent stderr", () => this.#options.onStderrLine?.(line));
      },
      onBackpressure: (blocked) => this.#options.onBackpressure(blocked),
      onExit: (info) => {
        if (current === this.#agent) guarded("reporting the agent's exit", () => this.#exited(info));
      },
    });
    this.#agent = current;
    this.#backoff.started(this.#options.clock.now());
    const pid = current.pid;
    if (pid !== undefined) {
      log(`[pi-bridge] agent started: ${command.command} ${command.args.join(" ")} (pid ${pid})`);
      for (const waiter of this.#startWaiters.splice(0)) waiter(pid);
    }
    this.#options.onStart(pid);
  }

  /** Restarts the agent now (stopping it first if it runs), whatever the policy. */
  restart(): Promise<void> {
    this.#restarting ??= (async () => {
      this.#cancelTimer();
      const previous = this.#agent;
      // Also one that has exited whose exit is not reported yet (its stdio is still being read).
      if (previous !== undefined && !previous.finished) {
        // Detach first, so its exit is reported here and does not schedule an automatic restart.
        this.#agent = undefined;
        this.#exited(await previous.stop(this.#options.stopGraceMs), false);
      }
      if (!this.#closing) this.start();
    })().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  /** Stops the agent (SIGTERM, then SIGKILL after the grace period); no restart follows. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#cancelTimer();
    this.#startWaiters = [];
    await this.#agent?.stop(this.#options.stopGraceMs);
  }

  #exited(info: AgentExitInfo, autoRestart = true): void {
    const { clock, log, policy } = this.#options;
    this.#lastExit = info;
    log(`[pi-bridge] agent exited (code ${info.code}, signal ${info.signal})`);
    this.#options.onExit(info);
    if (this.#closing || !autoRestart || policy !== "always") return;
    const delay = this.#backoff.next(clock.now());
    if (delay === undefined) {
      log(`[pi-bridge] not restarting the agent: ${this.#backoff.attempts} restarts in a row`);
      return;
    }
    log(`[pi-bridge] restarting the agent in ${delay} ms`);
    this.#restartTimer = clock.setTimeout(() => {
      this.#restartTimer = undefined;
      if (!this.#closing) this.start();
    }, delay);
  }

  #cancelTimer(): void {
    if (this.#restartTimer !== undefined) this.#options.clock.clearTimeout(this.#restartTimer);
    this.#restartTimer = undefined;
  }
}
