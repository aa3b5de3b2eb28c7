/**
 * `--static DIR`: the folder's files over HTTP on the bridge's port, and nothing outside it.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { PI_ELEMENTS_PROTOCOL, tokenProtocol } from "@pi-elements/core";
import { resolveInside } from "../src/static-files.js";
import { startFakeBridge, TestClient, withToken } from "./support/harness.js";

/**
 * Sends a raw HTTP request (so no client normalizes the path) and returns status, headers and body. `auth` is a
 * header line that presents the token (the bridge's, as a bearer token, unless given).
 */
function rawRequest(port: number, path: string, method = "GET", host = `127.0.0.1:${port}`, auth = authLine) {
  return new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n${auth}Connection: close\r\n\r\n`);
    });
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      data += chunk;
    });
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", ...rest] = data.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body: rest.join("\r\n\r\n") });
    });
  });
}

let authLine = "";

describe("static files", () => {
  let root: string;
  let outside: string;
  let bridge: Awaited<ReturnType<typeof startFakeBridge>>;
  before(async () => {
    const base = mkdtempSync(join(tmpdir(), "pi-bridge-static-"));
    root = join(base, "public");
    outside = join(base, "secret.txt");
    mkdirSync(join(root, "sub"), { recursive: true });
    writeFileSync(join(root, "index.html"), "<!doctype html><title>home</title>");
    writeFileSync(join(root, "app.js"), "export {};");
    writeFileSync(join(root, "sub", "index.html"), "sub home");
    writeFileSync(join(root, "weird name.txt"), "spaces");
    writeFileSync(outside, "TOP SECRET");
    symlinkSync(outside, join(root, "link-out.txt"));
    symlinkSync(join(root, "app.js"), join(root, "link-in.js"));
    writeFileSync(join(root, ".env"), "API_KEY=TOP SECRET");
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git", "config"), "TOP SECRET");
    mkdirSync(join(root, "sub", ".hidden"));
    writeFileSync(join(root, "sub", ".hidden", "x.txt"), "TOP SECRET");
    bridge = await startFakeBridge({ staticDir: root });
    authLine = `Authorization: Bearer ${bridge.token}\r\n`;
  });
  after(async () => {
    await bridge.close();
    rmSync(join(root, ".."), { recursive: true, force: true });
  });

  it("serves index.html for / and for a folder", async () => {
    const home = await rawRequest(bridge.port, "/");
    assert.equal(home.status, 200);
    assert.match(home.headers, /content-type: text\/html; charset=utf-8/i);
    assert.match(home.headers, /x-content-type-options: nosniff/i);
    assert.equal(home.body, "<!doctype html><title>home</title>");
    assert.equal((await rawRequest(bridge.port, "/sub/")).body, "sub home");
  });

  it("serves files with their type, percent-decoded names, and symlinks that stay inside", async () => {
    const js = await rawRequest(bridge.port, "/app.js?v=1");
    assert.equal(js.status, 200);
    assert.match(js.headers, /content-type: text\/javascript/i);
    assert.equal((await rawRequest(bridge.port, "/weird%20name.txt")).body, "spaces");
    assert.equal((await rawRequest(bridge.port, "/link-in.js")).body, "export {};");
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await rawRequest(bridge.port, "/app.js", "HEAD");
    assert.equal(head.status, 200);
    assert.equal(head.body, "");
    const post = await rawRequest(bridge.port, "/app.js", "POST");
    assert.equal(post.status, 405);
    assert.match(post.headers, /allow: GET, HEAD/i);
  });

  it("never serves anything outside the folder", async () => {
    for (const path of [
      "/../secret.txt",
      "/sub/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2fsecret.txt",
      "/..%2Fsecret.txt",
      "/%2e%2e%2fsecret.txt",
      "/..%5csecret.txt",
      "/..\\secret.txt",
      "/sub/%2e%2e/%2e%2e/secret.txt",
      "/link-out.txt",
      "/%00",
      "/%E0%A4%A",
      "//etc/passwd",
      "/etc/passwd",
    ]) {
      const response = await rawRequest(bridge.port, path);
      assert.ok([400, 404].includes(response.status), `${path} → ${response.status}`);
      assert.ok(!response.body.includes("TOP SECRET"), path);
      assert.ok(!response.body.includes("root:"), path);
    }
  });

  it("serves no dotfile or dot-folder", async () => {
    for (const path of ["/.env", "/.git/config", "/sub/.hidden/x.txt", "/%2eenv", "/.git/"]) {
      const response = await rawRequest(bridge.port, path);
      assert.ok([400, 404].includes(response.status), `${path} → ${response.status}`);
      assert.ok(!response.body.includes("TOP SECRET"), path);
    }
  });

  it("needs the token: 401 without it; ?token= sets an HttpOnly cookie that the page's other files then carry", async () => {
    const none = await rawRequest(bridge.port, "/app.js", "GET", undefined, "");
    assert.equal(none.status, 401);
    assert.ok(!none.body.includes("export"));
    assert.equal((await rawRequest(bridge.port, "/?token=wrong", "GET", undefined, "")).status, 401);
    const page = await rawRequest(bridge.port, `/?token=${bridge.token}`, "GET", undefined, "");
    assert.equal(page.status, 200);
    const cookie = /^set-cookie: ([^;]+);.*HttpOnly; SameSite=Strict/im.exec(page.headers)?.[1];
    assert.ok(cookie, page.headers);
    const script = await rawRequest(bridge.port, "/app.js", "GET", undefined, `Cookie: other=1; ${cookie}\r\n`);
    assert.equal(script.status, 200);
    assert.equal(script.body, "export {};");
    const forged = await rawRequest(bridge.port, "/app.js", "GET", undefined, `Cookie: ${cookie}x\r\n`);
    assert.equal(forged.status, 401);
  });

  it("sets a cookie that is not the token: a server that receives it cannot open the socket with it", async () => {
    const page = await rawRequest(bridge.port, `/?token=${bridge.token}`, "GET", undefined, "");
    const cookie = /^set-cookie: ([^;]+);/im.exec(page.headers)?.[1] ?? "";
    const value = cookie.slice(cookie.indexOf("=") + 1);
    assert.ok(value.length >= 43, page.headers);
    assert.ok(!page.headers.includes(bridge.token ?? "no token"), page.headers);
    const url = withToken(bridge.url, undefined);
    const attempts = [
      new TestClient(`${url}?token=${encodeURIComponent(value)}`),
      new TestClient(url, { headers: { Cookie: cookie } }),
      new TestClient(url, { headers: { Authorization: `Bearer ${value}` } }),
      new TestClient(url, { protocols: [PI_ELEMENTS_PROTOCOL, tokenProtocol(value)] } as never),
    ];
    // Each refused as a token is: closed with 4401 before the bridge sends anything.
    assert.deepEqual(await Promise.all(attempts.map((client) => client.answer)), [4401, 4401, 4401, 4401]);
    // The same forms with the token do open: the refusals are the cookie's, not the forms'.
    const token = bridge.token as string;
    for (const client of [
      new TestClient(`${url}?token=${encodeURIComponent(token)}`),
      new TestClient(url, { headers: { Authorization: `Bearer ${token}` } }),
      new TestClient(url, { protocols: [PI_ELEMENTS_PROTOCOL, tokenProtocol(token)] } as never),
    ]) {
      await client.opened;
      await client.close();
    }
  });

  it("a planted cookie of the same name and a longer path, sent first, does not lock the page out", async () => {
    const page = await rawRequest(bridge.port, `/?token=${bridge.token}`, "GET", undefined, "");
    const cookie = /^set-cookie: ([^;]+);/im.exec(page.headers)?.[1] ?? "";
    const name = `pi-bridge-${bridge.port}`;
    const script = await rawRequest(bridge.port, "/app.js", "GET", undefined, `Cookie: ${name}=planted; ${cookie}\r\n`);
    assert.equal(script.status, 200);
    assert.equal(script.body, "export {};");
  });

  it("every answer forbids other origins to load or frame it and sends no referrer", async () => {
    for (const [path, auth, status] of [
      ["/", undefined, 200],
      ["/app.js", undefined, 200],
      ["/missing", undefined, 404],
      ["/.env", undefined, 400],
      ["/app.js", "", 401],
    ] as const) {
      const response = await rawRequest(bridge.port, path, "GET", undefined, auth);
      assert.equal(response.status, status, path);
      for (const header of [
        /^cross-origin-resource-policy: same-origin$/im,
        /^content-security-policy: frame-ancestors 'self'$/im,
        /^x-frame-options: SAMEORIGIN$/im,
        /^referrer-policy: no-referrer$/im,
        /^x-content-type-options: nosniff$/im,
      ]) {
        assert.match(response.headers, header, `${path}: ${response.headers}`);
      }
    }
  });

  it("refuses requests addressed to another host name (DNS rebinding)", async () => {
    const response = await rawRequest(bridge.port, "/", "GET", "evil.example");
    assert.equal(response.status, 421);
  });

  it("still accepts WebSocket clients on the same port", async () => {
    const client = await TestClient.connect(bridge.url);
    await client.next((r) => r.type === "pi-elements/hello");
    await client.close();
  });

  it("resolveInside refuses .. segments, backslashes, NUL and malformed escapes", () => {
    assert.equal(resolveInside("/srv", "/a/b.txt"), "/srv/a/b.txt");
    assert.equal(resolveInside("/srv", "/a/./b.txt"), "/srv/a/b.txt");
    assert.equal(resolveInside("/srv", "/"), "/srv");
    for (const path of ["/../x", "/a/%2e%2e/x", "/a%2f..%2fx", "/a\\b", "/a%00b", "/%E0%A4%A"]) {
      assert.equal(resolveInside("/srv", path), undefined, path);
    }
  });
});
