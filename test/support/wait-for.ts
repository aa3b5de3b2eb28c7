/**
 * Bounded waits for the Node suites. node:test has no default timeout, and a bridge or a child process keeps the
 * event loop alive, so a wait for something that never happens would hang the run instead of failing it: these fail
 * after a limit with a message that says what was awaited. (Browser tests have @open-wc/testing's `waitUntil`.)
 */

/** How long a test waits for something that should happen at once (on a loaded machine) before it fails. */
export const WAIT_LIMIT_MS = 10_000;

export interface WaitOptions {
  /** What is awaited, as the failure message completes "Timed out after N ms waiting for …". */
  message: string;
  /** Milliseconds before the wait fails; WAIT_LIMIT_MS unless given. */
  timeout?: number;
  /** Milliseconds between two checks of a condition; 20 unless given. */
  interval?: number;
}

function timedOut({ message, timeout = WAIT_LIMIT_MS }: WaitOptions, detail?: () => string): Error {
  const extra = detail ? `; ${detail()}` : "";
  return new Error(`Timed out after ${timeout} ms waiting for ${message}${extra}`);
}

/**
 * Checks `condition` now and then every `interval` until it returns a truthy value, which it resolves with; fails
 * after `timeout`. `detail` adds what was seen instead to the failure message.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: WaitOptions & { detail?: () => string },
): Promise<NonNullable<T>> {
  const deadline = Date.now() + (options.timeout ?? WAIT_LIMIT_MS);
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() >= deadline) throw timedOut(options, options.detail);
    await new Promise((resolve) => setTimeout(resolve, options.interval ?? 20));
  }
}

/** `promise`, or a failure once `timeout` has passed without it settling. */
export function within<T>(promise: Promise<T>, options: WaitOptions): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut(options)), options.timeout ?? WAIT_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * What `pageSettled` runs in the page, as source: a function of the test's, compiled by tsx, would call esbuild's
 * `__name` helper, which the page does not have.
 */
const SETTLE_IN_PAGE = `(async () => {
  const pending = (root) =>
    [...root.querySelectorAll("*")].some(
      (element) => element.isUpdatePending === true || (element.shadowRoot !== null && pending(element.shadowRoot)),
    );
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  // A bound against a page that never settles, not a time to wait.
  for (let i = 0; pending(document); i++) {
    if (i === 1000) throw new Error("elements still had an update pending after 1,000 animation frames");
    await frame();
  }
  await document.fonts.ready;
  await frame();
  await frame();
})()`;

/**
 * Resolves once what `page` (a Playwright page or frame) started has painted: every element across open shadow
 * roots has no Lit update pending, the fonts it uses have loaded, and two animation frames have passed. A state,
 * not a time: a slow machine only makes it come later.
 */
export async function pageSettled(page: { evaluate(script: string): Promise<unknown> }): Promise<void> {
  await page.evaluate(SETTLE_IN_PAGE);
}

/**
 * Resolves once the page's pi-prompt can send, as a person waits for its Send button to be enabled: the session is
 * connected and pi is not working. (Enter pressed before that sends nothing, and the text stays in the box.) The
 * bound, 60 s on a busy machine while pi starts, says what it waited for.
 */
export async function promptReady(page: {
  locator(selector: string): { first(): { waitFor(options: { timeout: number }): Promise<void> } };
}): Promise<void> {
  await page.locator('pi-prompt [part~="send-button"]:enabled').first().waitFor({ timeout: 60_000 });
}
