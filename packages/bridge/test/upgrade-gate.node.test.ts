/** The upgrade gate on its own: requests as plain objects, a socket that records what was written to it. */
import assert from "node:assert/strict";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Duplex, PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { tokenProtocol } from "@pi-elements/core";
import { DEFAULT_ALLOWED_ORIGINS, parseOriginRule } from "../src/security.js";
import { UpgradeGate, type UpgradeGateOptions } from "../src/upgrade-gate.js";
import { ManualClock } from "./support/harness.js";

const TOKEN = "s3cret-token_value";

function gate(
  options: {
    token?: string | undefined;
    maxClients?: number;
    tokenFailures?: UpgradeGateOptions["tokenFailures"];
    clock?: ManualClock;
    flushTimeoutMs?: number;
  } = {},
) {
  const logs: string[] = [];
  const instance = new UpgradeGate({
    token: "token" in options ? options.token : TOKEN,
    hostNames: new Set(["bridge.example"]),
    originRules: [...DEFAULT_ALLOWED_ORIGINS, "https://app.example"].map(parseOriginRule),
    maxClients: options.maxClients ?? 4,
    ...(options.tokenFailures === undefined ? {} : { tokenFailures: options.tokenFailures }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.flushTimeoutMs === undefined ? {} : { flushTimeoutMs: options.flushTimeoutMs }),
    log: (line) => logs.push(line),
  });
  return { gate: instance, logs };
}

function request(url: string, headers: Record<string, string> = {}): IncomingMessage {
  return {
    url,
    headers: { host: "127.0.0.1:8787", ...headers },
    socket: { remoteAddress: "127.0.0.1", localPort: 8787 },
  } as unknown as IncomingMessage;
}

describe("UpgradeGate", () => {
  it("lets through a request with the token in the URL or as a bearer token", () => {
    const { gate: g } = gate();
    assert.equal(g.check(request(`/?token=${TOKEN}`, { origin: "http://localhost:5173" }), 0), undefined);
    assert.equal(g.check(request("/", { authorization: `Bearer ${TOKEN}` }), 3), undefined);
    assert.equal(g.check(request("/", { host: "bridge.example:80", origin: "https://app.example" }), 0)?.status, 401);
    assert.equal(gate({ token: undefined }).gate.check(request("/"), 0), undefined, "no token configured");
  });

  it("takes the token from the Sec-WebSocket-Protocol header; answers with pi-elements.v1, never the token", () => {
    const { gate: g } = gate();
    const offered = (token: string) => `pi-elements.v1, ${tokenProtocol(token)}`;
    assert.equal(g.check(request("/", { "sec-websocket-protocol": offered(TOKEN) }), 0), undefined);
    assert.equal(g.check(request("/", { "sec-websocket-protocol": offered("wrong") }), 0)?.status, 401);
    assert.equal(g.check(request("/", { "sec-websocket-protocol": "pi-elements.token.%%" }), 0)?.status, 401);
    assert.equal(g.protocol(new Set([tokenProtocol(TOKEN), "pi-elements.v1"])), "pi-elements.v1");
    assert.equal(g.protocol(new Set([tokenProtocol(TOKEN), "chat"])), "chat");
    assert.equal(g.protocol(new Set([tokenProtocol(TOKEN)])), false);
  });

  it("refuses, in this order: wrong host 421, bad target 400, other path 404, origin 403, token 401, full 503", () => {
    const { gate: g } = gate({ maxClients: 2 });
    const status = (url: string, headers: Record<string, string> = {}, connections = 0) =>
      g.check(request(url, headers), connections)?.status;
    assert.equal(status(`/?token=${TOKEN}`, { host: "evil.example" }), 421);
    assert.equal(status("//[/", { origin: "https://evil.example" }), 400);
    assert.equal(status(`/other?token=${TOKEN}`), 404);
    assert.equal(status(`/?token=${TOKEN}`, { origin: "https://evil.example" }), 403);
    assert.equal(status("/?token=wrong", {}, 5), 401, "the token is checked before the client count");
    assert.equal(status(`/?token=${TOKEN}`, {}, 2), 503);
  });

  it("answers a refusal on the raw socket, and logs at most 20 refusals a minute", async () => {
    const { gate: g, logs } = gate();
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => written.push(chunk));
    const ended = new Promise((resolve) => socket.on("finish", resolve));
    g.refuse(request("/", { origin: "https://evil.example" }), socket, { status: 403, text: "Forbidden" });
    await ended;
    const answer = Buffer.concat(written).toString();
    assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/);
    assert.match(answer, /\r\n\r\nForbidden\n$/);
    assert.match(
      logs[0] ?? "",
      /refused a connection from 127\.0\.0\.1: 403 Forbidden, Origin "https:\/\/evil.example"/,
    );
    for (let i = 0; i < 30; i++) g.refuse(request("/"), new PassThrough(), { status: 401, text: "Unauthorized" });
    assert.equal(logs.length, 20);
  });

  it("counts the refusal log's minute on its clock: after 60 s it says how many it left out, then logs again", () => {
    const clock = new ManualClock();
    const { gate: g, logs } = gate({ clock });
    const refuse = () => g.refuse(request("/"), new PassThrough(), { status: 401, text: "Unauthorized" });
    for (let i = 0; i < 30; i++) refuse();
    assert.equal(logs.length, 20);
    clock.advance(59_999);
    refuse();
    assert.equal(logs.length, 20, "still the same minute");
    clock.advance(1);
    refuse();
    assert.deepEqual(logs.slice(20), [
      "[pi-bridge] (11 more refusals not logged)",
      "[pi-bridge] refused a connection from 127.0.0.1: 401 Unauthorized",
    ]);
  });

  it("lets a refused socket whose peer reads nothing go after flushTimeoutMs on its clock", () => {
    const clock = new ManualClock();
    const { gate: g } = gate({ clock, flushTimeoutMs: 1000 });
    // A peer that reads nothing: the answer is never handed over, so only the bound ends the socket.
    const stuck = new Duplex({ read() {}, write() {} });
    g.refuse(request("/"), stuck, { status: 401, text: "Unauthorized" });
    clock.advance(999);
    assert.equal(stuck.destroyed, false);
    clock.advance(1);
    assert.equal(stuck.destroyed, true);
    assert.equal(clock.pending, 0);
  });

  it("never logs the token of a refused request", () => {
    const { gate: g, logs } = gate();
    g.refuse(request("/?token=wrong-but-secret", { authorization: "Bearer other-secret" }), new PassThrough(), {
      status: 401,
      text: "Unauthorized",
    });
    assert.equal(logs.length, 1);
    assert.doesNotMatch(logs.join("\n"), /secret/);
  });

  it("static files: the token in the URL sets a cookie for the page's own requests; no token, no files", () => {
    const { gate: g, logs } = gate();
    const cookies: string[] = [];
    const response = { setHeader: (_name: string, value: string) => cookies.push(value) } as unknown as ServerResponse;
    const url = (target: string) => new URL(target, "http://bridge.invalid");
    assert.equal(g.staticAllowed(request(`/?token=${TOKEN}`), response, url(`/?token=${TOKEN}`)), true);
    const cookie = /^(pi-bridge-8787=[A-Za-z0-9_-]{43}); HttpOnly; SameSite=Strict; Path=\/$/.exec(
      cookies[0] ?? "",
    )?.[1];
    assert.ok(cookie, cookies[0]);
    const withCookie = request("/app.js", { cookie: `other=1; ${cookie}` });
    assert.equal(g.staticAllowed(withCookie, response, url("/app.js")), true);
    assert.equal(g.staticAllowed(request("/app.js"), response, url("/app.js")), false);
    assert.equal(g.staticAllowed(request("/?token=x"), response, url("/?token=x")), false);
    assert.equal(logs.length, 2);
    assert.equal(g.hostAllowed(request("/", { host: "evil.example" })), false);
    assert.match(logs.at(-1) ?? "", /421 \(Host "evil.example"\)/);
  });

  it("answers wrong tokens one per interval, in turn; a right token and a request without one wait for nothing", () => {
    const clock = new ManualClock();
    const { gate: g } = gate({ clock, tokenFailures: { intervalMs: 250, maxWaiting: 4 } });
    const answered: number[] = [];
    const attempt = (target: string) => {
      const refusal = g.check(request(target), 0);
      if (refusal === undefined) return "admitted";
      // Notes the (manual) time at which the answer is written: writes reach `write` synchronously.
      const socket = new Duplex({
        read() {},
        write(_chunk, _encoding, done) {
          answered.push(clock.now());
          done();
        },
      });
      g.refuse(request(target), socket, refusal);
      return refusal.status;
    };
    const start = clock.now();
    for (let i = 0; i < 4; i++) assert.equal(attempt(`/?token=guess-${i}`), 401);
    clock.advance(0);
    assert.equal(answered.length, 0, "no wrong token is answered at once");
    assert.equal(attempt("/"), 401, "no token at all: no guess, refused at once");
    // The queue is full: a fifth guess is not even judged, and (the price of it) neither is the right token.
    assert.equal(attempt("/?token=guess-4"), 429);
    assert.equal(attempt(`/?token=${TOKEN}`), 429);
    clock.advance(1000);
    // 4 wrong tokens took 4 intervals: answered at 250, 500, 750 and 1000 ms (the tokenless one and the two 429s at 0).
    const paced = answered.filter((time) => time > start).map((time) => time - start);
    assert.deepEqual(paced, [250, 500, 750, 1000]);
    assert.equal(attempt(`/?token=${TOKEN}`), "admitted", "a right token is let through at once");
    const answers = answered.length;
    assert.equal(attempt("/?token=late-guess"), 401);
    clock.advance(249);
    assert.equal(answered.length, answers);
    clock.advance(1);
    assert.equal(answered.length, answers + 1, "a later guess waits one interval");
  });

  it("static files: the cookie is not the token and opens no socket; the token as a cookie opens no files", () => {
    const { gate: g } = gate();
    const cookies: string[] = [];
    const response = { setHeader: (_name: string, value: string) => cookies.push(value) } as unknown as ServerResponse;
    const url = (target: string) => new URL(target, "http://bridge.invalid");
    g.staticAllowed(request(`/?token=${TOKEN}`), response, url(`/?token=${TOKEN}`));
    const cookie = (cookies[0] ?? "").split(";")[0] ?? "";
    const secret = cookie.slice("pi-bridge-8787=".length);
    assert.notEqual(secret, TOKEN);
    assert.doesNotMatch(cookies[0] ?? "", new RegExp(TOKEN));
    // Whatever a server that received the cookie does with it at the upgrade, it is refused.
    const origin = "http://127.0.0.1:9999";
    for (const headers of [
      { cookie } as Record<string, string>,
      { authorization: `Bearer ${secret}` },
      { "sec-websocket-protocol": `pi-elements.v1, ${tokenProtocol(secret)}` },
    ]) {
      assert.equal(g.check(request("/", { origin, ...headers }), 0)?.status, 401, JSON.stringify(headers));
    }
    assert.equal(g.check(request(`/?token=${encodeURIComponent(secret)}`, { origin, cookie }), 0)?.status, 401);
    // And the old cookie, the token itself, no longer opens the files.
    const tokenCookie = request("/app.js", { cookie: `pi-bridge-8787=${TOKEN}` });
    assert.equal(g.staticAllowed(tokenCookie, response, url("/app.js")), false);
    // Another gate (a restarted bridge, same token) has another secret: the old cookie is worth nothing there.
    const restarted = gate().gate;
    assert.equal(restarted.staticAllowed(request("/app.js", { cookie }), response, url("/app.js")), false);
  });

  it("static files: a cookie of the same name sent before the bridge's (a longer path) does not shadow it", () => {
    const { gate: g } = gate();
    const cookies: string[] = [];
    const response = { setHeader: (_name: string, value: string) => cookies.push(value) } as unknown as ServerResponse;
    const url = (target: string) => new URL(target, "http://bridge.invalid");
    g.staticAllowed(request(`/?token=${TOKEN}`), response, url(`/?token=${TOKEN}`));
    const cookie = (cookies[0] ?? "").split(";")[0] ?? "";
    for (const header of [
      `pi-bridge-8787=planted; ${cookie}`,
      `pi-bridge-8787=; pi-bridge-8787=a=b; ${cookie}; pi-bridge-8787=after`,
      `pi-bridge-8787; other=1;${cookie}`,
    ]) {
      assert.equal(g.staticAllowed(request("/app.js", { cookie: header }), response, url("/app.js")), true, header);
    }
    assert.equal(
      g.staticAllowed(request("/app.js", { cookie: "pi-bridge-8787=planted; pi-bridge-8787=x" }), response, url("/")),
      false,
    );
  });
});
