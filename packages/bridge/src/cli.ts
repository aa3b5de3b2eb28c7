#!/usr/bin/env node
/**
 * `pi-bridge [options] [-- AGENT ARGS...]`: starts the bridge, prints the URL to open (with its token, like
 * Jupyter), and on SIGINT / SIGTERM stops the agent (SIGTERM, then SIGKILL after a grace period) and exits.
 */
import { startBridge } from "./bridge.js";
import { type CommandLine, parseCommandLine, USAGE } from "./command-line.js";

async function main(): Promise<void> {
  let options: CommandLine;
  const warnings: string[] = [];
  try {
    options = parseCommandLine(process.argv.slice(2), process.env, warnings);
  } catch (error) {
    process.stderr.write(`pi-bridge: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  for (const warning of warnings) process.stderr.write(`[pi-bridge] WARNING: ${warning}\n`);
  let bridge: Awaited<ReturnType<typeof startBridge>>;
  try {
    bridge = await startBridge(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    // The likeliest cause is the demo or another bridge on the default port: say so and what to do instead.
    const port = options.port ?? 8787;
    process.stderr.write(
      `pi-bridge: port ${port} on ${options.host ?? "127.0.0.1"} is already in use (is the demo or another pi-bridge running?).\n` +
        "  Stop it, or pick another port: --port N, or --port 0 for any free one (the URL printed says which).\n",
    );
    process.exit(1);
  }
  process.stdout.write(`${bridge.url}\n`);
  if (options.staticDir !== undefined) {
    process.stdout.write(`${bridge.url.replace(/^ws:/, "http:")}\n`);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl+C: the user does not want to wait for the grace period.
      const pid = bridge.agentPid;
      if (pid !== undefined) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // Already gone.
        }
      }
      process.exit(130);
    }
    stopping = true;
    process.stderr.write(`[pi-bridge] ${signal}: stopping the agent\n`);
    bridge.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`pi-bridge: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
