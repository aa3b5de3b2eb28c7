/**
 * The `pi-bridge` command line: options before `--`, the agent command after it.
 */
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { type BridgeOptions, type RestartPolicy, TOKEN_VARIABLE } from "./bridge.js";
import { parseHostName } from "./security.js";

/**
 * The shortest token the command line takes: 32 characters are 128 bits as hex, more in base64. The bridge cannot
 * tell how random a token is; it refuses one too short to be.
 */
export const MIN_TOKEN_CHARS = 32;

export const USAGE = `Usage: pi-bridge [options] [-- AGENT ARGS...]

Puts an agent speaking pi's RPC protocol (JSONL on stdio) on a WebSocket.
The agent defaults to \`pi --mode rpc\`: the newest installed @earendil-works/pi-coding-agent or
@mariozechner/pi-coding-agent (looked up from --cwd, then beside the bridge), else pi on PATH, run with a
Node that satisfies pi's own engines field.

Options:
  --port N              Port to listen on (default 8787; 0 picks a free one)
  --host ADDR           Address to bind (default 127.0.0.1)
  --allow-remote        Required to bind an address other than loopback
  --allow-host NAME     Also accept requests addressed to this host name or address, and pages served at
                        http(s)://NAME:PORT (repeatable; a bare name: no scheme, port or path)
  --token-file FILE     Read the token clients must present from FILE (default: $PI_BRIDGE_TOKEN if set,
                        else a random 256-bit one); warned about if other users can read or write FILE
  --token T             The token, on the command line (other local users can read it in the process list);
                        a token needs at least 32 characters, made by e.g. openssl rand -hex 32
  --no-token            Accept clients without a token (any local program can drive the agent)
  --allow-origin URL    Also accept pages from this origin (repeatable; http://host:* for any port; null)
  --cwd DIR             The agent's working directory
  --static DIR          Serve the files in DIR over HTTP on the same port
  --node PATH           The Node that runs the default pi (default: this one if pi's engines allow it, else
                        node-<platform>-<arch> installed beside pi, else node on PATH; also PI_BRIDGE_NODE)
  --approve             Trust the project for this run: the default pi (0.79+) then loads its .pi/extensions
  --restart POLICY      never | on-request (default) | always
  --grace MS            Milliseconds between SIGTERM and SIGKILL when stopping the agent (default 3000)
  -h, --help            Show this help

Example:
  pi-bridge --static ./public -- pi --mode rpc -e ./my-extension.ts`;

const POLICIES: readonly RestartPolicy[] = ["never", "on-request", "always"];

export type CommandLine = BridgeOptions | "help";

/**
 * Parses the command line; throws an Error with a message for the user on bad input. The token comes from
 * `--token-file`, `--token`, or `PI_BRIDGE_TOKEN` in `env`, in that order of precedence (at most one of the two
 * options); `warnings` gets what the user should know.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  warnings: string[] = [],
): CommandLine {
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  const agentArgv = separator === -1 ? [] : argv.slice(separator + 1);
  const { values, positionals } = parseArgs({
    args: [...own],
    strict: true,
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "allow-remote": { type: "boolean" },
      "allow-host": { type: "string", multiple: true },
      token: { type: "string" },
      "token-file": { type: "string" },
      "no-token": { type: "boolean" },
      "allow-origin": { type: "string", multiple: true },
      cwd: { type: "string" },
      static: { type: "string" },
      node: { type: "string" },
      approve: { type: "boolean" },
      restart: { type: "string" },
      grace: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0) throw new Error(`Unexpected argument ${positionals[0]}: the agent command goes after --`);
  const tokenOptions = [values.token, values["token-file"], values["no-token"]].filter((v) => v !== undefined);
  if (tokenOptions.length > 1) throw new Error("--token, --token-file and --no-token exclude each other");
  if (values.token === "") throw new Error("--token must not be empty");
  if (values.token !== undefined) {
    warnings.push("--token is visible to every local user in the process list; prefer --token-file or PI_BRIDGE_TOKEN");
  }
  const options: BridgeOptions = {};
  if (values.port !== undefined) options.port = integer("--port", values.port, 0, 65535);
  if (values.host !== undefined) options.host = values.host;
  if (values["allow-remote"]) options.allowRemote = true;
  if (values["no-token"]) options.token = false;
  else if (values.token !== undefined) options.token = values.token;
  else if (values["token-file"] !== undefined) options.token = readToken(values["token-file"], warnings);
  else if (env[TOKEN_VARIABLE] !== undefined) {
    if (env[TOKEN_VARIABLE] === "") throw new Error(`${TOKEN_VARIABLE} must not be empty`);
    options.token = env[TOKEN_VARIABLE];
  }
  if (typeof options.token === "string" && options.token.length < MIN_TOKEN_CHARS) {
    const source =
      values.token !== undefined ? "--token" : values["token-file"] !== undefined ? "--token-file" : TOKEN_VARIABLE;
    throw new Error(
      `The token of ${source} is ${options.token.length} characters; it needs at least ${MIN_TOKEN_CHARS} ` +
        "(make one with `openssl rand -hex 32`, or give none and the bridge makes a random one)",
    );
  }
  if (values["allow-host"] !== undefined) options.allowHosts = values["allow-host"].map(allowedHost);
  if (values["allow-origin"] !== undefined) options.allowOrigins = values["allow-origin"];
  if (values.cwd !== undefined) options.cwd = values.cwd;
  if (values.static !== undefined) options.staticDir = values.static;
  if (values.restart !== undefined) {
    if (!POLICIES.includes(values.restart as RestartPolicy)) {
      throw new Error(`--restart must be one of ${POLICIES.join(", ")}`);
    }
    options.restart = values.restart as RestartPolicy;
  }
  if (values.grace !== undefined) options.stopGraceMs = integer("--grace", values.grace, 0, 600_000);
  if (values.node !== undefined) options.node = values.node;
  if (values.approve) options.approve = true;
  if (agentArgv.length > 0 && (values.node !== undefined || values.approve)) {
    throw new Error(
      "--node and --approve apply to the default pi; with your own agent command, put them in it after --",
    );
  }
  if (agentArgv.length > 0) {
    const [command, ...args] = agentArgv as [string, ...string[]];
    options.agent = { command, args };
  }
  return options;
}

/** An `--allow-host` value, checked now so that the user hears of a mistake before anything starts. */
function allowedHost(text: string): string {
  try {
    return parseHostName(text);
  } catch (error) {
    throw new Error(`--allow-host: ${(error as Error).message}`);
  }
}

/**
 * The token in a file: its first line, without surrounding white space. A file that users other than its owner may
 * read or write, or that another user owns, adds a warning (POSIX only: Windows has no such mode bits).
 */
function readToken(file: string, warnings: string[]): string {
  let text: string;
  try {
    const fd = openSync(file, "r");
    try {
      // The file read is the file checked (fstat on the open descriptor, not a second look-up of the name).
      const stat = fstatSync(fd);
      if (process.platform !== "win32") {
        const mode = stat.mode & 0o777;
        const uid = process.getuid?.();
        if ((mode & 0o077) !== 0) {
          warnings.push(
            `--token-file ${file} can be read or written by other users (mode 0${mode.toString(8)}): whoever ` +
              `can read it can drive the agent. Make it private: chmod 600 ${file}`,
          );
        } else if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) {
          warnings.push(`--token-file ${file} belongs to another user (uid ${stat.uid}), who can read and change it.`);
        }
      }
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new Error(`--token-file: cannot read ${file}: ${(error as Error).message}`);
  }
  const token = (text.split("\n")[0] ?? "").trim();
  if (token === "") throw new Error(`--token-file: ${file} holds no token`);
  return token;
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw new Error(`${flag} must be an integer ${min}-${max}`);
  return value;
}
