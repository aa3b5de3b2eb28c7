/**
 * End to end, part of the real-pi matrix that runs in Chromium (test/engines.mjs; Firefox and WebKit run
 * smoke-real-pi.test.ts): the real pi (0.73.1 and 1.6.0) with the
 * test extension, behind the real bridge, into the no-build page (demo/hosts/plain/index.html) running the
 * single-file bundle. The page sits in a same-origin iframe so the test can read it, reload it and click in it;
 * commands are typed into its pi-prompt and dialogs answered with real keys and clicks. What pi received is read
 * from the toast pi sends back (`<command> -> <result>`) into the page's pi-notifications.
 */
import { expect, waitUntil } from "@open-wc/testing";
import { executeServerCommand, sendKeys, sendMouse } from "@web/test-runner-commands";
import { deepAll } from "../../support/deep-dom.js";
import { untilCanSend } from "../../support/readme-page.js";

const WAIT = { timeout: 20_000, interval: 50 };
let frame: HTMLIFrameElement;
const errors: string[] = [];

/** `"pi-select >>> [role=option]"`: each step is searched inside (shadow root and children of) the previous step's matches. */
function findAll(path: string): Element[] {
  let matches: Element[] = [];
  let scopes: ParentNode[] = [frame.contentDocument!];
  for (const step of path.split(" >>> ")) {
    matches = scopes.flatMap((scope) => deepAll(scope, step));
    scopes = matches.flatMap((el) => (el.shadowRoot ? [el.shadowRoot, el] : [el]));
  }
  return [...new Set(matches)];
}
const find = (selector: string) => findAll(selector)[0];

/** The text a user reads in `el`, its shadow root included. */
function deepText(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? "";
  const el = node as Element;
  const children = [...(el.shadowRoot?.childNodes ?? []), ...node.childNodes];
  return children.map(deepText).join("");
}

async function waitFor(selector: string, what = selector): Promise<HTMLElement> {
  await waitUntil(() => find(selector), `${what} to appear`, WAIT);
  return find(selector) as HTMLElement;
}

/** The element that has focus in the page, looked up through shadow roots. */
function deepActive(): Element | null {
  let active = frame.contentDocument!.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Waits until the control matching `path` has focus (as a user waits for the caret) and returns it. */
async function focused(path: string): Promise<HTMLElement> {
  await waitUntil(() => find(path) && deepActive() === find(path), `${path} to have focus`, WAIT);
  return find(path) as HTMLElement;
}

/** Waits until focus is somewhere inside the element `tag` (its shadow root included). */
async function focusInside(tag: string): Promise<void> {
  const inside = () => {
    for (let node: Node | null | undefined = deepActive(); node; ) {
      if (node.nodeType === Node.ELEMENT_NODE && (node as Element).localName === tag) return true;
      node = node.parentNode ?? (node as ShadowRoot).host;
    }
    return false;
  };
  await waitUntil(inside, `focus inside ${tag}`, WAIT);
}

/**
 * Waits until the dialog element `tag` has armed (its first moments on screen, when presses are ignored, are over;
 * its controls no longer say `aria-disabled`), as a user waits for the buttons to light up.
 */
async function armed(tag: string): Promise<HTMLElement> {
  const el = await waitFor(tag);
  await waitUntil(() => !(el as HTMLElement & { arming: boolean }).arming, `${tag} to arm`, WAIT);
  return el;
}

async function waitGone(selector: string): Promise<void> {
  await waitUntil(() => !find(selector), `${selector} to go away`, WAIT);
}

/** A real click at the middle of `el` (coordinates of the top page: the iframe fills its viewport from 0,0). */
async function click(el: Element): Promise<void> {
  el.scrollIntoView({ block: "center" });
  const r = el.getBoundingClientRect();
  const f = frame.getBoundingClientRect();
  await sendMouse({
    type: "click",
    position: [Math.round(f.x + r.x + r.width / 2), Math.round(f.y + r.y + r.height / 2)],
  });
}

/** Waits for pi's report `<command> -> …` in a toast and returns its text. */
async function report(command: string): Promise<string> {
  const reports = () =>
    findAll("pi-notifications >>> [part~=body]")
      .map((body) => deepText(body).trim())
      .filter((text) => text.startsWith(`${command} ->`));
  await waitUntil(() => reports().length > 0, `pi to report "${command} -> …"`, WAIT).catch((error: Error) => {
    const seen = findAll("pi-notifications >>> [part~=body]").map((body) => deepText(body).trim());
    throw new Error(`${error.message}; toasts: ${JSON.stringify(seen)}`);
  });
  return reports().at(-1)!;
}

/** Dismisses every toast, so the next report read is the next test's. */
async function clearToasts(): Promise<void> {
  for (const button of findAll("pi-notifications >>> [part~=dismiss]")) (button as HTMLElement).click();
  await waitUntil(() => findAll("pi-notifications >>> [part~=body]").length === 0, "toasts to clear", WAIT);
}

/** Types a slash command into the page's prompt, as a user would, and sends it with Enter. */
async function run(command: string): Promise<void> {
  await clearToasts();
  await click(await waitFor("pi-prompt >>> textarea"));
  await sendKeys({ type: command });
  await sendKeys({ press: "Enter" });
}

async function load(url: string): Promise<void> {
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  if (frame.src === "") frame.src = url;
  else frame.contentWindow!.location.reload();
  await loaded;
  frame.contentWindow!.addEventListener("error", (event) => errors.push(String(event.message)));
  frame.contentWindow!.addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));
  await waitUntil(() => deepText(find("pi-prompt")!).length > 0, "the page to render", WAIT);
  await untilCanSend(find("pi-prompt")!, WAIT);
}

/** Both pi versions under test (test/support/real-pi.ts): 0.73.1 on this Node, 1.6.0 on the Node 22 beside it. */
for (const version of ["0.73.1", "1.6.0"]) {
  describe(`pi ${version} → bridge → single-file bundle (no-build page)`, function () {
    this.timeout(60_000);

    before(async function () {
      this.timeout(60_000);
      frame = document.createElement("iframe");
      frame.style.cssText = "position: fixed; inset: 0 auto auto 0; inline-size: 100vw; block-size: 100vh; border: 0";
      document.body.append(frame);
      errors.length = 0;
      const url = await executeServerCommand<string, { version: string }>("real-pi:start", { version });
      await load(url);
    });

    after(async () => {
      frame?.remove();
      await executeServerCommand("real-pi:stop");
    });

    it("a select answered with the keyboard (ArrowDown, Enter) reaches pi", async () => {
      await run("/ui-select");
      await waitFor("pi-select >>> [role=option]");
      await focusInside("pi-select");
      await armed("pi-select");
      await sendKeys({ press: "ArrowDown" });
      await sendKeys({ press: "Enter" });
      expect(await report("ui-select")).to.equal('ui-select -> "Beta"');
      await waitGone("pi-select");
    });

    it("a select answered with the mouse reaches pi; its markup stays text", async () => {
      await run("/ui-select");
      await waitFor("pi-select >>> [role=option]");
      expect(deepText(find("pi-select")!)).to.contain("Pick one <img src=x onerror=alert(1)>");
      await armed("pi-select");
      const snow = findAll("pi-select >>> [role=option]").find((o) => deepText(o).includes("雪 (snow)"))!;
      await click(snow);
      expect(await report("ui-select")).to.equal('ui-select -> "雪 (snow)"');
    });

    it("a confirm answered with the keyboard (ArrowLeft to Yes, Enter) and one with the mouse (No) reach pi", async () => {
      await run("/ui-confirm");
      await focused("pi-confirm >>> [part~=no-button]");
      await armed("pi-confirm");
      await sendKeys({ press: "ArrowLeft" });
      await sendKeys({ press: "Enter" });
      expect(await report("ui-confirm")).to.equal("ui-confirm -> true");
      await waitGone("pi-confirm");
      await run("/ui-confirm");
      await armed("pi-confirm");
      await click(await waitFor("pi-confirm >>> [part~=no-button]"));
      expect(await report("ui-confirm")).to.equal("ui-confirm -> false");
    });

    it("the double Enter on a permission gate (/ui-gate, the showcase's /gate) answers nothing; pi gets the deliberate answer", async () => {
      await clearToasts();
      await click(await waitFor("pi-prompt >>> textarea"));
      await sendKeys({ type: "/ui-gate" });
      await sendKeys({ press: "Enter" }); // the first press sends the command; pi runs it and opens its gate...
      await waitUntil(() => find("pi-confirm"), "the gate to appear", { timeout: 20_000, interval: 5 });
      const gate = find("pi-confirm") as HTMLElement & { open: boolean; arming: boolean };
      await focusInside("pi-confirm");
      const armingAtSecondPress = gate.arming;
      await sendKeys({ press: "Enter" }); // ...and the second press of the double press lands on it
      // An answer closes the dialog in the page at once (pi's toast comes later): it is still open, nothing answered.
      expect(gate.open, "the gate is still open after the second Enter").to.equal(true);
      expect(find("pi-confirm"), "the gate is still shown").to.equal(gate);
      expect(armingAtSecondPress, "the second press came while the gate armed").to.equal(true);
      // The deliberate answer, once the gate has armed: Enter on the focused No.
      await armed("pi-confirm");
      await sendKeys({ press: "Enter" });
      expect(await report("ui-gate")).to.equal("ui-gate -> false");
      await waitGone("pi-confirm");
    });

    it("a gate answered deliberately after arming by the mouse (Yes) and by a finger tap (Yes) reaches pi", async () => {
      await run("/ui-gate");
      await armed("pi-confirm");
      await click(await waitFor("pi-confirm >>> [part~=yes-button]"));
      expect(await report("ui-gate")).to.equal("ui-gate -> true");
      await waitGone("pi-confirm");
      await run("/ui-gate");
      await armed("pi-confirm");
      const yes = await waitFor("pi-confirm >>> [part~=yes-button]");
      yes.scrollIntoView({ block: "center" });
      const r = yes.getBoundingClientRect();
      const f = frame.getBoundingClientRect();
      const tapped = await executeServerCommand("tap", {
        x: Math.round(f.x + r.x + r.width / 2),
        y: Math.round(f.y + r.y + r.height / 2),
      });
      // WebKitWebDriver has no touch input here (test/support/plugins/touch.mjs): the mouse answered above.
      if (!tapped) await click(yes);
      expect(await report("ui-gate")).to.equal("ui-gate -> true");
      await waitGone("pi-confirm");
    });

    it("an input answered with the keyboard, and one typed then submitted with the mouse, reach pi", async () => {
      await run("/ui-input");
      await focused("pi-input >>> input");
      await armed("pi-input");
      await sendKeys({ type: "typed  by keys" });
      await sendKeys({ press: "Enter" });
      expect(await report("ui-input")).to.equal('ui-input -> "typed  by keys"');
      await waitGone("pi-input");
      await run("/ui-input");
      await focused("pi-input >>> input");
      await armed("pi-input");
      await sendKeys({ type: "then clicked" });
      const button = await waitFor("pi-input >>> [part~=submit-button]");
      await click(button);
      expect(await report("ui-input")).to.equal('ui-input -> "then clicked"');
    });

    it("an editor's prefill (markup, CJK, U+2028) submitted with Enter, and one edited then submitted with the mouse", async () => {
      await run("/ui-editor");
      const area = (await focused("pi-editor >>> textarea")) as HTMLTextAreaElement;
      await armed("pi-editor");
      expect(area.value).to.equal("first line\n<img src=x onerror=alert(1)>\n漢字かな\u2028same record");
      await sendKeys({ press: "Enter" });
      expect(await report("ui-editor")).to.equal(
        `ui-editor -> ${JSON.stringify("first line\n<img src=x onerror=alert(1)>\n漢字かな\u2028same record")}`,
      );
      await waitGone("pi-editor");
      await run("/ui-editor");
      const second = (await focused("pi-editor >>> textarea")) as HTMLTextAreaElement;
      await armed("pi-editor");
      second.setSelectionRange(0, second.value.length);
      await sendKeys({ type: "replaced" });
      await click(await waitFor("pi-editor >>> [part~=submit-button]"));
      expect(await report("ui-editor")).to.equal('ui-editor -> "replaced"');
    });

    it("a timed dialog left alone closes in the page, and pi gets its default", async () => {
      await run("/ui-timed-input 1500");
      await waitFor("pi-input");
      await waitGone("pi-input");
      expect(await report("ui-timed-input")).to.equal("ui-timed-input -> undefined");
    });

    it("two dialogs pending at once are shown one after the other, and both answers reach pi", async () => {
      await run("/ui-two");
      await waitUntil(
        () => deepText(find("pi-extension-ui >>> [part=queue]") ?? document.body).includes("1 of 2"),
        "1 of 2",
      );
      await focusInside("pi-confirm");
      await armed("pi-confirm");
      await sendKeys({ press: "ArrowLeft" });
      await sendKeys({ press: "Enter" });
      await focused("pi-input >>> input");
      await armed("pi-input");
      await sendKeys({ type: "second" });
      await sendKeys({ press: "Enter" });
      expect(await report("ui-two")).to.equal('ui-two -> {"confirmed":true,"value":"second"}');
    });

    it("ANSI-styled statuses and widgets render their text without escapes or markup", async () => {
      await run("/ui-styled");
      await report("ui-styled");
      const bar = deepText(find("pi-status-bar")!);
      expect(bar).to.contain("accent error bold <img src=x onerror=alert(1)>");
      expect(bar).to.contain("warm bold struck after a tab");
      expect(bar).to.not.contain("\u001b");
      const widget = (await waitFor("pi-widget-slot >>> [part~=widget][data-key=styled]")) as HTMLElement;
      const lines = [...widget.querySelectorAll("[part~=line]")].map((line) => line.textContent);
      expect(lines.slice(0, 4)).to.deep.equal([
        "✔ success line",
        "⚠ warning line <img src=x onerror=alert(1)>",
        "italic strikethrough",
        "warm bold struck",
      ]);
      // A styled span really carries a colour: the ANSI was turned into style, not dropped.
      const success = widget.querySelector("[part~=line] span") as HTMLElement;
      expect(getComputedStyle(success).color).to.not.equal(getComputedStyle(widget).color);
    });

    it("a page reloaded in the middle of a dialog shows it again, and the answer reaches pi", async () => {
      await run("/ui-input");
      await waitFor("pi-input >>> input");
      await load("");
      await armed("pi-input");
      await click(await waitFor("pi-input >>> input"));
      await sendKeys({ type: "after reload" });
      await sendKeys({ press: "Enter" });
      expect(await report("ui-input")).to.equal('ui-input -> "after reload"');
    });

    it("nothing was injected and the page threw nothing", () => {
      expect(findAll("img")).to.have.length(0);
      expect(errors).to.deep.equal([]);
    });
  });
}
