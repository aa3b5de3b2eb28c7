import { expect, fixture, html, waitUntil } from "@open-wc/testing";
import { PiSession, protocolToken, WebSocketTransport } from "@pi-elements/core";
import { executeServerCommand } from "@web/test-runner-commands";
import "../src/elements/extension-ui/define.js";
import "../src/elements/prompt/define.js";
import "../src/elements/session/define.js";
import type { PiExtensionUi } from "../src/elements/extension-ui/extension-ui.js";
import { PAGE_TOKEN_KEY } from "../src/elements/session/page-token.js";
import type { PiSessionElement } from "../src/elements/session/session.js";
import { FakeAgent, settle } from "./session-fake-agent.js";
import { withoutArming } from "./support/dialogs.js";

withoutArming();

const changes = (el: HTMLElement) => {
  const seen: (PiSession | undefined)[] = [];
  el.addEventListener("pi-session-change", (e) => seen.push(e.detail.session));
  return seen;
};

let roomCount = 0;
const newRoom = () => `pi-session-${Date.now()}-${++roomCount}`;

describe("pi-session with a given session", () => {
  let agent: FakeAgent;
  beforeEach(() => {
    agent = new FakeAgent();
  });
  afterEach(() => agent.session.close());

  it("provides the session to pi-* descendants, also ones added later and nested in other elements", async () => {
    const el = await fixture<PiSessionElement>(html`<pi-session></pi-session>`);
    const seen = changes(el);
    el.session = agent.session;
    expect(el.session).to.equal(agent.session);
    expect(seen).to.deep.equal([agent.session]);
    const section = document.createElement("section");
    section.innerHTML = `<pi-extension-ui sync-title></pi-extension-ui>`;
    el.append(section);
    const host = section.querySelector<PiExtensionUi>("pi-extension-ui")!;
    const before = document.title;
    agent.request("input", { title: "via context" });
    agent.request("setTitle", { title: "from pi-session" });
    await settle();
    expect(host.current?.request.title).to.equal("via context");
    expect(document.title).to.equal("from pi-session");
    host.remove();
    expect(document.title).to.equal(before);
  });

  it("switches every descendant when the session is replaced, and an element's own session wins", async () => {
    const other = new FakeAgent();
    const el = await fixture<PiSessionElement>(
      html`<pi-session .session=${agent.session}><pi-extension-ui></pi-extension-ui><pi-extension-ui id="own"></pi-extension-ui></pi-session>`,
    );
    const [viaContext, own] = el.querySelectorAll("pi-extension-ui");
    own!.session = other.session;
    agent.request("input", { title: "first agent" });
    other.request("input", { title: "own agent" });
    await settle();
    expect(viaContext!.current?.request.title).to.equal("first agent");
    expect(own!.current?.request.title).to.equal("own agent");
    const third = new FakeAgent();
    third.request("confirm", { title: "third agent", message: "" });
    el.session = third.session;
    await settle();
    expect(viaContext!.current?.request.title).to.equal("third agent");
    expect(own!.current?.request.title).to.equal("own agent");
    other.session.close();
    third.session.close();
  });

  it("never closes a session it was given", async () => {
    const el = await fixture<PiSessionElement>(html`<pi-session .session=${agent.session}></pi-session>`);
    el.remove();
    await settle();
    expect(agent.session.ui.getSnapshot().connection).to.equal("open");
    expect(el.session).to.equal(agent.session);
  });

  it("renders its children and nothing else", async () => {
    const el = await fixture<PiSessionElement>(html`<pi-session><p>child</p></pi-session>`);
    expect(getComputedStyle(el).display).to.equal("contents");
    expect(el.shadowRoot!.querySelectorAll("*:not(slot)")).to.have.length(0);
    expect(el.querySelector("p")!.checkVisibility()).to.equal(true);
    await expect(el).to.be.accessible();
  });
});

describe("pi-session with a url", () => {
  it("connects over a WebSocket, speaks JSONL, and closes on removal", async () => {
    const room = newRoom();
    const url = (await executeServerCommand("ws-server:url", { room })) as string;
    const wrapper = await fixture<HTMLElement>(html`<div></div>`);
    const el = document.createElement("pi-session");
    const seen = changes(el);
    el.setAttribute("url", url);
    el.innerHTML = `<pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui>`;
    wrapper.append(el);
    const session = el.session!;
    expect(session).to.be.instanceOf(PiSession);
    expect(session.transport).to.be.instanceOf(WebSocketTransport);
    expect(seen).to.deep.equal([session]);
    await executeServerCommand("ws-server:wait-for-connections", { room, total: 1, open: 1 });
    // Two records in one frame, as a bridge piping pi's stdout may send them.
    const request = { type: "extension_ui_request", id: "w1", method: "input", title: "over the wire" };
    const title = { type: "extension_ui_request", id: "w2", method: "setTitle", title: "t" };
    await executeServerCommand("ws-server:send", {
      room,
      frames: [`${JSON.stringify(request)}\n${JSON.stringify(title)}\n`],
    });
    const host = el.querySelector("pi-extension-ui")!;
    for (let i = 0; i < 50 && !host.current; i++) await settle();
    expect(host.current?.id).to.equal("w1");
    host.shadowRoot!.querySelector<HTMLElement & { cancel(): boolean }>('[part~="dialog-element"]')!.cancel();
    const frames = (await executeServerCommand("ws-server:wait-for-received", { room, count: 1 })) as string[];
    expect(frames).to.deep.equal([`${JSON.stringify({ type: "extension_ui_response", id: "w1", cancelled: true })}\n`]);
    el.remove();
    await settle();
    expect(seen).to.deep.equal([session, undefined]);
    expect(el.session).to.equal(undefined);
    expect(session.ui.getSnapshot().connection).to.equal("closed");
    await executeServerCommand("ws-server:wait-for-connections", { room, total: 1, open: 0 });
  });

  it("keeps its connection when moved within the document", async () => {
    const url = (await executeServerCommand("ws-server:url", { room: newRoom() })) as string;
    const wrapper = await fixture<HTMLElement>(html`<div><section></section></div>`);
    const el = document.createElement("pi-session");
    el.url = url;
    wrapper.append(el);
    const session = el.session;
    wrapper.querySelector("section")!.append(el);
    await settle();
    expect(el.session).to.equal(session);
    expect(session!.ui.getSnapshot().connection).to.not.equal("closed");
    el.remove();
  });

  it("reconnects elsewhere when the url changes, and a given session takes precedence", async () => {
    const first = (await executeServerCommand("ws-server:url", { room: newRoom() })) as string;
    const second = (await executeServerCommand("ws-server:url", { room: newRoom() })) as string;
    const el = await fixture<PiSessionElement>(html`<pi-session url=${first}></pi-session>`);
    const one = el.session!;
    el.url = second;
    await el.updateComplete;
    const two = el.session!;
    expect(two).to.not.equal(one);
    expect((two.transport as WebSocketTransport).url).to.equal(second);
    expect(one.ui.getSnapshot().connection).to.equal("closed");
    const agent = new FakeAgent();
    el.session = agent.session;
    expect(el.session).to.equal(agent.session);
    el.session = undefined;
    expect(el.session).to.equal(two);
    el.remove();
    agent.session.close();
  });

  it("resolves a relative url against the page, with the page's token only for the page's own origin", async () => {
    const before = location.href;
    // What each element's socket really asks for: its URL, and the token its Sec-WebSocket-Protocol carries.
    const opened: Array<{ url: string; token: string | undefined }> = [];
    const RealWebSocket = window.WebSocket;
    window.WebSocket = class extends RealWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        opened.push({ url: String(url), token: protocolToken([protocols ?? []].flat().join(",")) });
      }
    };
    let seen = 0;
    const socket = async (el: PiSessionElement) => {
      expect(el.session).to.not.equal(undefined);
      await waitUntil(() => opened.length > seen, "the element opened no socket");
      const { url, token } = opened[seen++]!;
      return token === undefined ? url : `${url} token=${token}`;
    };
    const origin = `ws://${location.host}`;
    const base = document.createElement("base");
    const withToken = new URL(before);
    withToken.searchParams.set("token", "t 1&x=<b>");
    history.replaceState(history.state, "", withToken);
    try {
      // What a page the bridge serves (opened at its http://…/?token=… address) writes: url="/". (Here a path that
      // no socket of the test runner's server answers.)
      const served = await fixture<PiSessionElement>(html`<pi-session url="/no-bridge/"></pi-session>`);
      expect(await socket(served)).to.equal(`${origin}/no-bridge/ token=t 1&x=<b>`);
      const own = await fixture<PiSessionElement>(html`<pi-session url="/no-bridge/?token=mine"></pi-session>`);
      expect(await socket(own)).to.equal(`${origin}/no-bridge/ token=mine`);
      const absolute = await fixture<PiSessionElement>(html`<pi-session url="ws://127.0.0.1:9/"></pi-session>`);
      expect(await socket(absolute)).to.equal("ws://127.0.0.1:9/");
      // A relative url that resolves elsewhere (another base, another host) never gets the page's token.
      const otherHost = await fixture<PiSessionElement>(html`<pi-session url="//agent.invalid/"></pi-session>`);
      expect(await socket(otherHost)).to.equal("ws://agent.invalid/");
      base.href = "https://agent.invalid/app/";
      document.head.append(base);
      const elsewhere = await fixture<PiSessionElement>(html`<pi-session url="socket"></pi-session>`);
      expect(await socket(elsewhere)).to.equal("wss://agent.invalid/app/socket");
      base.remove();
      history.replaceState(history.state, "", before);
      sessionStorage.removeItem(PAGE_TOKEN_KEY);
      const noToken = await fixture<PiSessionElement>(html`<pi-session url="/no-bridge/"></pi-session>`);
      expect(await socket(noToken)).to.equal(`${origin}/no-bridge/`);
      for (const el of [served, own, absolute, otherHost, elsewhere, noToken]) el.remove();
    } finally {
      window.WebSocket = RealWebSocket;
      base.remove();
      history.replaceState(history.state, "", before);
      sessionStorage.removeItem(PAGE_TOKEN_KEY);
    }
  });

  it("takes the page's ?token= out of its address, keeping the rest, and finds it again after (a reload)", async () => {
    const before = location.href;
    const tokens: Array<string | undefined> = [];
    const RealWebSocket = window.WebSocket;
    window.WebSocket = class extends RealWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        tokens.push(protocolToken([protocols ?? []].flat().join(",")));
      }
    };
    const page = new URL(before);
    const rest = `${page.search}${page.search === "" ? "?" : "&"}a=1%202`;
    history.replaceState(history.state, "", `${page.pathname}${rest}&token=t%3D1&token=again&b=x+y#frag`);
    try {
      const served = await fixture<PiSessionElement>(html`<pi-session url="/no-bridge/"></pi-session>`);
      await waitUntil(() => tokens.length === 1, "the element opened no socket");
      expect(tokens[0]).to.equal("t=1");
      expect(location.search).to.equal(`${rest}&b=x+y`);
      expect(location.hash).to.equal("#frag");
      expect(location.href).to.not.contain("t%3D1");
      served.remove();
      // What a reload of that address makes: a new element, and no ?token= in the address any more.
      const again = await fixture<PiSessionElement>(html`<pi-session url="/no-bridge/"></pi-session>`);
      await waitUntil(() => tokens.length === 2, "the element opened no socket");
      expect(tokens[1]).to.equal("t=1");
      again.remove();
      // A socket elsewhere neither takes the token nor touches the address.
      history.replaceState(history.state, "", `${page.pathname}${rest}&token=other`);
      const elsewhere = await fixture<PiSessionElement>(html`<pi-session url="//agent.invalid/"></pi-session>`);
      await waitUntil(() => tokens.length === 3, "the element opened no socket");
      expect(tokens[2]).to.equal(undefined);
      expect(location.search).to.equal(`${rest}&token=other`);
      elsewhere.remove();
    } finally {
      window.WebSocket = RealWebSocket;
      history.replaceState(history.state, "", before);
      sessionStorage.removeItem(PAGE_TOKEN_KEY);
    }
  });

  it("sends the token in a header, not the URL: from the url's ?token= or the token property", async () => {
    const room = newRoom();
    const url = (await executeServerCommand("ws-server:url", { room })) as string;
    const el = await fixture<PiSessionElement>(html`<pi-session url=${`${url}?token=from-url`}></pi-session>`);
    expect((el.session!.transport as WebSocketTransport).url).to.equal(url);
    await executeServerCommand("ws-server:wait-for-connections", { room, total: 1, open: 1 });
    const first = el.session!;
    el.token = "from-property";
    await el.updateComplete;
    expect(el.session).to.not.equal(first, "a new token makes a new connection");
    expect(el.hasAttribute("token")).to.equal(false);
    expect(el.outerHTML).to.not.contain("from-property");
    await executeServerCommand("ws-server:wait-for-connections", { room, total: 2, open: 1 });
    el.remove();
  });

  it("has no session without url or property", async () => {
    const el = await fixture<PiSessionElement>(html`<pi-session></pi-session>`);
    expect(el.session).to.equal(undefined);
  });
});

describe("pi-session defined after its consumers", () => {
  /** A fresh document (own registry, own modules) whose page module defines the consumers before pi-session. */
  async function lateProviderFrame(): Promise<HTMLIFrameElement> {
    const frame = document.createElement("iframe");
    const page = new URL("./session-context-order.page.ts", import.meta.url).pathname;
    frame.srcdoc = `<!doctype html><html lang="en"><title>late provider</title>
      <pi-session><pi-extension-ui><pi-prompt></pi-prompt></pi-extension-ui><pi-status-bar></pi-status-bar></pi-session>
      <script type="module" src="${page}"></script>`;
    // Module scripts run before DOMContentLoaded, so they have run by the frame's load event.
    const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
    document.body.append(frame);
    await loaded;
    return frame;
  }

  it("gives the session to consumers that connected before the provider existed", async () => {
    const frame = await lateProviderFrame();
    try {
      const win = frame.contentWindow as Window & { agent: FakeAgent };
      const doc = frame.contentDocument!;
      const agent = win.agent;
      expect(agent, "the page module ran").to.not.equal(undefined);
      agent.request("set_editor_text", { text: "reached the prompt" });
      agent.request("setStatus", { statusKey: "k", statusText: "reached the status bar" });
      agent.request("input", { title: "reached the host" });
      await settle();
      const host = doc.querySelector("pi-extension-ui")!;
      const input = host.shadowRoot!.querySelector("pi-input");
      expect(input, "the host got the session and shows the dialog").to.not.equal(null);
      expect(input!.shadowRoot!.querySelector("[part~=heading]")!.textContent).to.contain("reached the host");
      input!.shadowRoot!.querySelector<HTMLButtonElement>("button")!.click();
      await settle();
      expect(agent.responses()).to.have.length(1);
      const prompt = doc.querySelector("pi-prompt")!;
      expect(prompt.shadowRoot!.querySelector("textarea")!.value).to.equal("reached the prompt");
      expect(doc.querySelector("pi-status-bar")!.shadowRoot!.textContent).to.contain("reached the status bar");
      agent.session.close();
    } finally {
      frame.remove();
    }
  });
});
