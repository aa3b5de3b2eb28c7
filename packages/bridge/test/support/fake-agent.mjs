#!/usr/bin/env node
/**
 * A stand-in for `pi --mode rpc`, driven by the tests through the bridge itself.
 *
 * Every stdin line is reported back as `{"type":"received","line":<the line>}`, so a test sees exactly what
 * reached the agent. A `prompt` whose message starts with `!` is a directive:
 *   !emit <JSON array>   write these values as JSONL records, all in one write
 *   !raw <JSON string>   write this text to stdout as is
 *   !split <JSON array>  write these strings to stdout one by one, 20 ms apart (a record cut across reads)
 *   !stderr <text>       write the text (and a line feed) to stderr
 *   !stderr-flood <n> <c> write n stderr lines of c characters each
 *   !exit <code>         exit with that code
 *   !burst <n>           n setStatus requests in one write
 *   !hold                stop reading stdin until SIGUSR2 arrives
 *   !child               spawn a long-lived child process in the same group and report its pid
 *   !env <NAME>          report the variable: {"type":"env","name","value"} (value null when unset)
 *   !orphan              spawn a long-lived child in a session of its own (setsid) that inherits stdin, stdout and
 *                        stderr, and report its pid (what an `npm install` started by pi does to pi's stderr)
 * Flags: --ignore-sigterm (ignores SIGTERM and the end of stdin: only SIGKILL stops it), --banner (writes a `fake_ready` record at start).
 * Like pi, it exits when its stdin ends.
 */
import { spawn } from "node:child_process";

const out = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

const stubborn = process.argv.includes("--ignore-sigterm");
if (stubborn) {
  process.on("SIGTERM", () => {});
  setInterval(() => {}, 60_000);
}
if (process.argv.includes("--banner")) out({ type: "fake_ready", pid: process.pid });

/** While stdin is paused nothing else keeps the process alive. */
let holdTimer;
process.on("SIGUSR2", () => {
  clearInterval(holdTimer);
  process.stdin.resume();
});

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let lf = pending.indexOf("\n");
  while (lf !== -1) {
    const line = pending.slice(0, lf);
    pending = pending.slice(lf + 1);
    handle(line);
    lf = pending.indexOf("\n");
  }
});
process.stdin.on("end", () => {
  if (!stubborn) process.exit(0);
});

function handle(line) {
  out({ type: "received", line });
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.type !== "prompt" || typeof message.message !== "string" || !message.message.startsWith("!")) return;
  const space = message.message.indexOf(" ");
  const directive = space === -1 ? message.message.slice(1) : message.message.slice(1, space);
  const argument = space === -1 ? "" : message.message.slice(space + 1);
  switch (directive) {
    case "emit":
      process.stdout.write(
        JSON.parse(argument)
          .map((value) => `${JSON.stringify(value)}\n`)
          .join(""),
      );
      break;
    case "raw":
      process.stdout.write(JSON.parse(argument));
      break;
    case "split": {
      const parts = JSON.parse(argument);
      const writeNext = () => {
        process.stdout.write(parts.shift());
        if (parts.length > 0) setTimeout(writeNext, 20);
      };
      writeNext();
      break;
    }
    case "stderr":
      process.stderr.write(`${argument}\n`);
      break;
    case "stderr-flood": {
      const [lines, chars] = argument.split(" ").map(Number);
      for (let i = 0; i < lines; i++) process.stderr.write(`${String(i % 10).repeat(chars)}\n`);
      break;
    }
    case "exit":
      // After what was written so far has been flushed (a large write to a pipe completes asynchronously).
      process.stderr.write("", () => process.stdout.write("", () => process.exit(Number(argument))));
      break;
    case "burst": {
      let text = "";
      const count = Number(argument);
      for (let i = 1; i <= count; i++) {
        text += `${JSON.stringify({ type: "extension_ui_request", id: `b${i}`, method: "setStatus", statusKey: "burst", statusText: `${i}/${count}` })}\n`;
      }
      process.stdout.write(text);
      break;
    }
    case "hold":
      process.stdin.pause();
      holdTimer = setInterval(() => {}, 60_000);
      out({ type: "holding" });
      break;
    case "child": {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      out({ type: "child", pid: child.pid });
      break;
    }
    case "env":
      out({ type: "env", name: argument, value: process.env[argument] ?? null });
      break;
    case "orphan": {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
        stdio: "inherit",
        detached: true,
      });
      child.unref();
      out({ type: "orphan", pid: child.pid });
      break;
    }
  }
}
