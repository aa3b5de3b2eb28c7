/**
 * The elements benchmark's page side (bundled by esbuild, run in Chromium):
 * - dialog open: a dialog request is sent on the agent end of a memory transport pair; the clock stops when the
 *   matching dialog element inside `<pi-extension-ui>` is rendered, visible and holds focus (its `focusin`);
 * - status burst: 2,000 setStatus requests sent back to back (as pi writes an extension's loop in one chunk) and
 *   the number of `pi-status-bar` renders (`updated()` calls) they cause.
 */
// The built core, the same module the elements import as "@pi-elements/core".
import { createMemoryPair, PiSession } from "../packages/core/dist/index.js";
import "../packages/elements/src/elements/extension-ui/define.js";
import "../packages/elements/src/elements/prompt/define.js";
import "../packages/elements/src/elements/status-bar/define.js";

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function requestFor(i: number): object {
  const id = `bench-${i}`;
  const base = { type: "extension_ui_request", id, title: `Question ${i}` };
  switch (i % 4) {
    case 0:
      return { ...base, method: "confirm", message: "Run `rm -rf build`?\nThis cannot be undone.", timeout: 30000 };
    case 1:
      return {
        ...base,
        method: "select",
        options: Array.from({ length: 20 }, (_, n) => `option ${n}`),
        timeout: 30000,
      };
    case 2:
      return { ...base, method: "input", placeholder: "branch name" };
    default:
      return { ...base, method: "editor", prefill: "fix: something\n\nbody text" };
  }
}

/** A macrotask turn without setTimeout's clamping. */
const channel = new MessageChannel();
const yieldTask = () =>
  new Promise<void>((resolve) => {
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

/** When the shown dialog element is visible and holds focus: checked on every focusin and after every task. */
async function dialogReady(host: HTMLElement): Promise<number> {
  const ready = () => {
    const element = host.shadowRoot!.querySelector<HTMLElement>('[part~="dialog-element"]');
    return element?.matches(":focus-within") === true && element.checkVisibility();
  };
  let at: number | undefined;
  const onFocus = () => {
    if (at === undefined && ready()) at = performance.now();
  };
  host.addEventListener("focusin", onFocus);
  try {
    for (let turns = 0; at === undefined; turns++) {
      if (turns > 10_000) throw new Error("the dialog never became visible and focused");
      await yieldTask();
      if (at === undefined && ready()) at = performance.now();
    }
    return at;
  } finally {
    host.removeEventListener("focusin", onFocus);
  }
}

async function dialogOpen(mode: "inline" | "modal", runs: number, warmup: number): Promise<number[]> {
  const [client, agent] = createMemoryPair();
  const session = new PiSession(client);
  const host = document.createElement("pi-extension-ui");
  host.modal = mode === "modal";
  host.session = session;
  const prompt = document.createElement("pi-prompt");
  prompt.session = session;
  host.append(prompt);
  document.body.append(host);
  await host.updateComplete;
  const times: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    prompt.focus();
    const start = performance.now();
    agent.send(JSON.stringify(requestFor(i)));
    const end = await dialogReady(host);
    if (i >= warmup) times.push(end - start);
    host.shadowRoot!.querySelector<HTMLElement & { cancel(): boolean }>('[part~="dialog-element"]')!.cancel();
    await nextFrame();
    if (host.current) throw new Error(`dialog ${i} did not close`);
  }
  session.close();
  host.remove();
  return times;
}

async function statusBurst(count: number): Promise<{ renders: number; shown: number }> {
  const [client, agent] = createMemoryPair();
  const session = new PiSession(client);
  const bar = document.createElement("pi-status-bar");
  bar.session = session;
  document.body.append(bar);
  agent.send(
    JSON.stringify({
      type: "extension_ui_request",
      id: "s0",
      method: "setStatus",
      statusKey: "k0",
      statusText: "ready",
    }),
  );
  await nextFrame();
  let renders = 0;
  const updated = (bar as unknown as { updated(changed: unknown): void }).updated;
  (bar as unknown as { updated(changed: unknown): void }).updated = function (this: unknown, changed: unknown) {
    renders++;
    updated.call(this, changed);
  };
  for (let i = 0; i < count; i++) {
    const statusText = `\u001b[38;2;138;190;183mstep ${i}\u001b[39m of ${count}`;
    agent.send(
      JSON.stringify({
        type: "extension_ui_request",
        id: `s${i + 1}`,
        method: "setStatus",
        statusKey: `k${i % 200}`,
        statusText,
      }),
    );
  }
  for (let i = 0; i < 5; i++) await nextFrame();
  const shown = bar.shadowRoot!.querySelectorAll("[data-key]").length;
  session.close();
  bar.remove();
  return { renders, shown };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

async function benchElements(options: { runs: number; warmup: number; burst: number }) {
  const inline = (await dialogOpen("inline", options.runs, options.warmup)).sort((a, b) => a - b);
  const modal = (await dialogOpen("modal", options.runs, options.warmup)).sort((a, b) => a - b);
  const burst = await statusBurst(options.burst);
  return {
    dialogOpenMsP50: quantile(inline, 0.5),
    dialogOpenMsP95: quantile(inline, 0.95),
    statusBurstRenders: burst.renders,
    dialogOpenRuns: inline.length,
    dialogOpenMsMax: inline[inline.length - 1],
    modalDialogOpenMsP50: quantile(modal, 0.5),
    modalDialogOpenMsP95: quantile(modal, 0.95),
    statusBurstSize: options.burst,
    statusBurstEntriesShown: burst.shown,
  };
}

(globalThis as unknown as { benchElements: typeof benchElements }).benchElements = benchElements;
