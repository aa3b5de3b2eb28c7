#!/usr/bin/env node
// Records what Chromium, Firefox and WebKit really fire while a real input method composes Japanese and Chinese text,
// for the browser tests (test/support/ime.ts). Firefox and WebKit replay their recordings: their drivers cannot reach
// an input method. Chromium composes live through its DevTools protocol, with the texts its recording shows; its
// recording is replayed only where no input method composes (a list). Usage:
//
//   node scripts/record-ime.mjs [--engines chromium,firefox,webkit] [--out test/fixtures/ime]
//
// How: a private Xvfb display with a window manager (openbox) and a D-Bus session bus, IBus with ibus-anthy
// (Japanese, hiragana mode) and ibus-libpinyin (Chinese), the stock browser (Debian's chromium and firefox-esr;
// WebKitGTK's MiniBrowser) started on its own with GTK_IM_MODULE=ibus (no automation attached), a page whose one
// field fills the window (inside a modal <dialog>, as the dialogs' fields are), and real X key presses from xdotool,
// one key at a time, each held 50 ms, waiting after each key until the page has been quiet for 400 ms. The page sends
// every keydown / keypress / keyup, beforeinput / input and compositionstart / update / end it sees (and the
// dialog's cancel), with the field's value and selection at that moment, to a loopback server here. One file per
// engine and language: test/fixtures/ime/<engine>-<language>.jsonl, with a header naming the versions it was recorded
// with. The input method answers asynchronously, so an event can land in the step of the next key, and two runs can
// differ in such details; the order of events is the engine's.
//
// Needs (Debian): xvfb openbox dbus ibus ibus-gtk3 ibus-anthy ibus-libpinyin xdotool, plus the browsers; as root it
// installs the missing ones with apt-get. Only this script needs them: the tests replay the files it writes.
// Every process it starts (Xvfb, openbox, dbus-daemon, ibus-daemon, the browsers) is stopped by PID at the end.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { firefoxPath, miniBrowserPath, startXvfb } from "./browsers.mjs";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const ENGINES = option("engines", "chromium,firefox,webkit").split(",");
const OUT = resolve(root, option("out", "test/fixtures/ime"));

/**
 * What is typed. Each key is one step of the recording; `phase` groups the keys the tests play together:
 * "compose" opens and fills the composition, "convert" turns the reading into the text (Japanese Space),
 * "enter" is the key that commits while composing (Enter; Space picking a Chinese candidate), "cancel" is Esc while
 * composing, "after" is the plain key that follows.
 * Fields: "input" (one line), "textarea" (several lines), "listbox" (a focusable element that is not editable,
 * the way a select's option list is: does the IME reach it at all?).
 */
const SCENARIOS = [
  {
    name: "reading-convert-enter",
    language: "ja",
    ibus: "anthy",
    fields: ["input", "textarea"],
    what: "にほんご typed as n-i-h-o-n-g-o, Space converts it to 日本語, Enter commits it, a second Enter follows",
    keys: [..."nihongo"]
      .map((key) => [key, "compose"])
      .concat([
        ["space", "convert"],
        ["Return", "enter"],
        ["Return", "after"],
      ]),
  },
  {
    name: "slash-reading-latin-enter",
    language: "ja",
    ibus: "anthy",
    fields: ["textarea"],
    what: "/ p i typed in hiragana mode, F10 turns the composition to Latin letters, Enter commits it, Enter follows",
    keys: [
      ["slash", "compose"],
      ["p", "compose"],
      ["i", "compose"],
      ["F10", "convert"],
      ["Return", "enter"],
      ["Return", "after"],
    ],
  },
  {
    name: "reading-escape",
    language: "ja",
    ibus: "anthy",
    fields: ["input"],
    what: "にほ typed as n-i-h-o, Esc cancels the composition, a second Esc follows",
    keys: [..."niho"]
      .map((key) => [key, "compose"])
      .concat([
        ["Escape", "cancel"],
        ["Escape", "after"],
      ]),
  },
  {
    name: "keys-on-listbox",
    language: "ja",
    ibus: "anthy",
    fields: ["listbox"],
    what: "n-i-h-o typed with the IME on while a focusable, non-editable element has focus",
    keys: [..."niho"].map((key) => [key, "compose"]),
  },
  {
    name: "pinyin-enter",
    language: "zh",
    ibus: "libpinyin",
    fields: ["input", "textarea"],
    what: "z-h-o-n-g-w-e-n typed (the preedit shows a candidate), Enter commits the letters as typed, Enter follows",
    keys: [..."zhongwen"]
      .map((key) => [key, "compose"])
      .concat([
        ["Return", "enter"],
        ["Return", "after"],
      ]),
  },
  {
    name: "pinyin-space",
    language: "zh",
    ibus: "libpinyin",
    fields: ["input", "textarea"],
    what: "z-h-o-n-g-w-e-n typed, Space commits the first candidate (中文), Enter follows",
    keys: [..."zhongwen"]
      .map((key) => [key, "compose"])
      .concat([
        ["space", "enter"],
        ["Return", "after"],
      ]),
  },
  {
    name: "slash-pinyin-enter",
    language: "zh",
    ibus: "libpinyin",
    fields: ["textarea"],
    what: "/ typed with the IME on, then p-i, Enter commits the letters, Enter follows",
    keys: [
      ["slash", "compose"],
      ["p", "compose"],
      ["i", "compose"],
      ["Return", "enter"],
      ["Return", "after"],
    ],
  },
  {
    name: "pinyin-escape",
    language: "zh",
    ibus: "libpinyin",
    fields: ["input"],
    what: "z-h-o-n-g typed, Esc cancels the composition, a second Esc follows",
    keys: [..."zhong"]
      .map((key) => [key, "compose"])
      .concat([
        ["Escape", "cancel"],
        ["Escape", "after"],
      ]),
  },
  {
    name: "keys-on-listbox",
    language: "zh",
    ibus: "libpinyin",
    fields: ["listbox"],
    what: "z-h-o-n-g typed with the IME on while a focusable, non-editable element has focus",
    keys: [..."zhong"].map((key) => [key, "compose"]),
  },
];

const PACKAGES = ["xvfb", "openbox", "dbus", "ibus", "ibus-gtk3", "ibus-anthy", "ibus-libpinyin", "xdotool"];
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** The installed version of a Debian package ("" when it is not installed). */
function version(pkg) {
  try {
    // "name<TAB>version", the version empty for a package known but not installed.
    return execFileSync("dpkg-query", ["--show", pkg]).toString().trim().split("\t")[1] ?? "";
  } catch {
    return "";
  }
}

function ensurePackages() {
  const missing = PACKAGES.filter((pkg) => version(pkg) === "");
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`record-ime needs Debian's ${missing.join(" ")} (apt-get install).`);
  console.log(`== Installing ${missing.join(" ")}`);
  execFileSync("apt-get", ["install", "-y", "-qq", ...missing], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

/** The page: one field filling the window; every event it sees goes to the server, numbered. */
function page(field) {
  const element =
    field === "listbox"
      ? `<div id="f" tabindex="0" role="listbox" aria-label="list">options</div>`
      : field === "textarea"
        ? `<textarea id="f"></textarea>`
        : `<input id="f">`;
  return `<!doctype html><meta charset="utf-8"><title>ime-recorder</title>
<style>html,body{margin:0;height:100%}
dialog{box-sizing:border-box;width:100%;height:100%;max-width:none;max-height:none;margin:0;padding:0;border:0}
#f{box-sizing:border-box;width:100%;height:100%;font-size:32px}</style>
<dialog id="d">${element}</dialog>
<script>
const f = document.getElementById("f");
const d = document.getElementById("d");
d.showModal();
let seq = 0;
const send = (record) => fetch("/event", { method: "POST", body: JSON.stringify({ seq: seq++, ...record }) });
for (const type of ["keydown", "keypress", "keyup", "beforeinput", "input", "compositionstart", "compositionupdate", "compositionend"]) {
  f.addEventListener(type, (e) => {
    const r = { type };
    if (e instanceof KeyboardEvent) Object.assign(r, { key: e.key, code: e.code, keyCode: e.keyCode, charCode: e.charCode, isComposing: e.isComposing });
    if (e instanceof InputEvent) Object.assign(r, { inputType: e.inputType, data: e.data, isComposing: e.isComposing });
    if (e instanceof CompositionEvent) r.data = e.data;
    if ("value" in f) Object.assign(r, { value: f.value, selectionStart: f.selectionStart, selectionEnd: f.selectionEnd });
    send(r);
  });
}
// Does the engine treat a key the input method took as the modal dialog's close request? Kept open either way.
d.addEventListener("cancel", (e) => { e.preventDefault(); send({ type: "cancel" }); });
d.addEventListener("close", () => send({ type: "close" }));
// Ready once the window is active and the field has focus (the dialog may have focused it before the window was).
const ready = setInterval(() => {
  if (document.hasFocus() && document.activeElement === f) {
    clearInterval(ready);
    fetch("/focused", { method: "POST" });
  }
}, 100);
</script>`;
}

async function main() {
  ensurePackages();
  const work = mkdtempSync(join(tmpdir(), "record-ime-"));
  const stops = [];
  try {
    // IBus keeps its settings and caches under the XDG directories: a private set, with ibus-anthy in hiragana mode
    // (its default is Latin) through GSettings' keyfile backend.
    const config = join(work, "config");
    mkdirSync(join(config, "glib-2.0", "settings"), { recursive: true });
    writeFileSync(
      join(config, "glib-2.0", "settings", "keyfile"),
      "[org/freedesktop/ibus/engine/anthy/common]\ninput-mode=0\n",
    );
    const xvfb = await startXvfb();
    stops.push(xvfb.stop);
    const env = {
      ...process.env,
      // ibus-anthy is a python3 program for Debian's python3 (python3-gi): no other python3 first on the PATH.
      PATH: `/usr/bin:/bin:${process.env.PATH}`,
      DISPLAY: xvfb.display,
      XDG_CONFIG_HOME: config,
      XDG_CACHE_HOME: join(work, "cache"),
      GSETTINGS_BACKEND: "keyfile",
      GTK_IM_MODULE: "ibus",
      XMODIFIERS: "@im=ibus",
      LANG: "C.UTF-8",
      NO_AT_BRIDGE: "1",
    };
    stops.push(startProcess("openbox", [], env));
    // Firefox's IBus module talks to IBus only with a session bus there. A bus of our own that starts no services
    // (the stock session bus would start portals and the accessibility bus, which outlive it).
    const busConfig = join(work, "session-bus.conf");
    writeFileSync(
      busConfig,
      `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=${work}</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>\n`,
    );
    const bus = spawn("dbus-daemon", [`--config-file=${busConfig}`, "--nofork", "--print-address=1"], {
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    stops.push(stopper(bus));
    env.DBUS_SESSION_BUS_ADDRESS = await firstLine(bus.stdout);
    stops.push(startProcess("ibus-daemon", ["--panel=disable"], env));
    await until(() => run("ibus", ["list-engine"], env)?.includes("anthy"), "ibus-daemon to list ibus-anthy");

    const events = [];
    let focused = false;
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (request.method === "POST") {
        let body = "";
        request.on("data", (chunk) => {
          body += chunk;
        });
        request.on("end", () => {
          if (url.pathname === "/event") events.push(JSON.parse(body));
          if (url.pathname === "/focused") focused = true;
          response.end();
        });
        return;
      }
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(page(url.searchParams.get("field") ?? "input"));
    });
    await new Promise((done) => server.listen(0, "127.0.0.1", () => done(undefined)));
    stops.push(() => new Promise((done) => server.close(() => done(undefined))));
    const origin = `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (server.address()).port}`;

    // Quiet: xdotool reports a window that vanished meanwhile on stderr, and the search is tried again.
    const x = (...xargs) =>
      execFileSync("xdotool", xargs, { env, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    const versions = {
      ibus: version("ibus"),
      "ibus-anthy": version("ibus-anthy"),
      anthy: version("anthy"),
      "ibus-libpinyin": version("ibus-libpinyin"),
      xdotool: version("xdotool"),
      xvfb: version("xvfb"),
      openbox: version("openbox"),
    };

    for (const engine of ENGINES) {
      const browser = browsers[engine];
      if (!browser) throw new Error(`unknown engine ${engine} (${Object.keys(browsers).join(", ")})`);
      for (const language of ["ja", "zh"]) {
        const recorded = [];
        for (const scenario of SCENARIOS.filter((s) => s.language === language)) {
          for (const field of scenario.fields) {
            run("ibus", ["engine", scenario.ibus], env);
            await until(() => run("ibus", ["engine"], env)?.trim() === scenario.ibus, `IBus engine ${scenario.ibus}`);
            events.length = 0;
            focused = false;
            const stop = browser.start(`${origin}/?field=${field}`, env, work);
            try {
              // The first window found may be a short-lived one: search again until one can be activated.
              const window = await until(() => {
                try {
                  const found = x("search", "--onlyvisible", "--name", "ime-recorder").split("\n")[0] ?? "";
                  x("windowactivate", "--sync", found);
                  x("windowsize", "--sync", found, "800", "600");
                  return found;
                } catch {
                  return undefined;
                }
              }, `${engine}'s window`);
              x("mousemove", "--window", window, "400", "400", "click", "1");
              await until(() => focused, "the field to get focus");
              await quiet(events);
              events.length = 0;
              const steps = [];
              for (const [key, phase] of scenario.keys) {
                const from = events.length;
                x("keydown", key);
                await sleep(50);
                x("keyup", key);
                await quiet(events);
                steps.push({ key, phase, events: events.slice(from) });
              }
              // Sent in order, received in any order: sorted back by number within each step.
              for (const step of steps) step.events = step.events.sort((a, b) => a.seq - b.seq).map(withoutSeq);
              recorded.push({ name: scenario.name, field, what: scenario.what, ibus: scenario.ibus, steps });
              console.log(
                `${engine} ${language} ${scenario.name} (${field}): ${steps.flatMap((s) => s.events).length} events`,
              );
            } finally {
              await stop();
            }
          }
        }
        const file = join(OUT, `${engine}-${language}.jsonl`);
        mkdirSync(OUT, { recursive: true });
        const header = {
          recordedBy: "scripts/record-ime.mjs",
          recordedOn: new Date().toISOString().slice(0, 10),
          engine,
          browser: browser.version(),
          inputMethod: language === "ja" ? "IBus + ibus-anthy (hiragana mode)" : "IBus + ibus-libpinyin",
          how: "stock browser without automation on Xvfb + openbox with a D-Bus session bus, GTK_IM_MODULE=ibus; the field fills a modal <dialog>; real X key presses (xdotool keydown, 50 ms, keyup), one key per step, each step ends after 400 ms without events",
          versions,
        };
        writeFileSync(file, jsonLines(header, recorded));
        console.log(`wrote ${file}`);
      }
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
    // Helpers IBus started on its own (its engines, a portal) may be left: every process that carries this run's
    // private directory in its environment is one of ours.
    for (const pid of processesWith(`XDG_CACHE_HOME=${join(work, "cache")}`)) process.kill(pid, "SIGTERM");
    rmSync(work, { recursive: true, force: true });
  }
}

const browsers = {
  firefox: {
    version: () => execFileSync(firefoxPath(), ["--version"]).toString().trim(),
    start(url, env, work) {
      const profile = mkdtempSync(join(work, "firefox-"));
      writeFileSync(
        join(profile, "user.js"),
        [
          'user_pref("browser.shell.checkDefaultBrowser", false);',
          'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
          'user_pref("toolkit.telemetry.enabled", false);',
          'user_pref("app.update.enabled", false);',
          'user_pref("browser.aboutwelcome.enabled", false);',
        ].join("\n"),
      );
      return startProcess(firefoxPath(), ["--no-remote", "--profile", profile, "--kiosk", url], env);
    },
  },
  chromium: {
    version: () => execFileSync(chromiumPath(), ["--version"]).toString().trim(),
    start(url, env, work) {
      const profile = mkdtempSync(join(work, "chromium-"));
      // The suite's flags, with a window: an input method needs one.
      const flags = CHROMIUM_ARGS.filter((flag) => !flag.startsWith("--headless"));
      return startProcess(chromiumPath(), [...flags, `--user-data-dir=${profile}`, "--kiosk", url], env);
    },
  },
  webkit: {
    version: () => `WebKitGTK ${version("libwebkit2gtk-4.1-0")} MiniBrowser`,
    start: (url, env) => startProcess(miniBrowserPath(), [url], env),
  },
};

/**
 * One JSON value a line: the header, then each scenario followed by its steps, each step followed by its events
 * ({"header"}, {"scenario", "field", ...}, {"key", "phase"}, {"type", ...}). A caret at the end of the value, the
 * usual case, and a charCode of 0 are left out.
 */
function jsonLines(header, scenarios) {
  const lines = [{ header }];
  for (const { name, steps, ...scenario } of scenarios) {
    lines.push({ scenario: name, ...scenario });
    for (const { events, ...step } of steps) {
      lines.push(step);
      for (const event of events) {
        const { charCode, selectionStart, selectionEnd, ...rest } = event;
        const caretAtEnd =
          event.value === undefined || (selectionStart === event.value.length && selectionEnd === event.value.length);
        lines.push({
          ...rest,
          ...(charCode ? { charCode } : {}),
          ...(caretAtEnd ? {} : { selectionStart, selectionEnd }),
        });
      }
    }
  }
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** The PIDs of processes whose environment holds `entry` (Linux /proc; this process excluded). */
function processesWith(entry) {
  const pids = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(entry)) pids.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return pids;
}

function withoutSeq({ seq: _seq, ...event }) {
  return event;
}

function run(command, argv, env) {
  try {
    return execFileSync(command, argv, { env, stdio: ["ignore", "pipe", "ignore"], timeout: 10000 }).toString();
  } catch {
    return undefined;
  }
}

function startProcess(command, argv, env) {
  return stopper(spawn(command, argv, { env, stdio: "ignore" }));
}

function stopper(child) {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done(undefined);
      const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(kill);
        done(undefined);
      });
      child.kill("SIGTERM");
    });
}

function firstLine(stream) {
  return new Promise((done, fail) => {
    let text = "";
    stream.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) done(text.split("\n")[0].trim());
    });
    stream.once("end", () => fail(new Error("no address from dbus-daemon")));
  });
}

/** Polls `check` until it returns something truthy (30 s at most). */
async function until(check, what) {
  for (let waited = 0; waited < 30000; waited += 100) {
    const result = await check();
    if (result) return result;
    await sleep(100);
  }
  throw new Error(`record-ime: gave up waiting for ${what}`);
}

/** Waits until no event has arrived for 400 ms (10 s at most). */
async function quiet(events) {
  let count = -1;
  for (let waited = 0; waited < 10000; waited += 400) {
    if (events.length === count) return;
    count = events.length;
    await sleep(400);
  }
}

await main();
