import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DEFAULT_ALLOWED_ORIGINS,
  generateToken,
  hostHeaderAllowed,
  isLoopbackHost,
  originAllowed,
  parseOriginRule,
  presentedToken,
  tokenMatches,
} from "../src/security.js";

const defaults = DEFAULT_ALLOWED_ORIGINS.map(parseOriginRule);

describe("tokens", () => {
  it("are at least 128 random bits, different every time", () => {
    const tokens = new Set(Array.from({ length: 100 }, generateToken));
    assert.equal(tokens.size, 100);
    for (const token of tokens) {
      assert.match(token, /^[A-Za-z0-9_-]+$/);
      assert.ok(Buffer.from(token, "base64url").length * 8 >= 128);
    }
  });

  it("match only the exact token", () => {
    const token = generateToken();
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(`${token}x`, token), false);
    assert.equal(tokenMatches(token.slice(1), token), false);
    assert.equal(tokenMatches("", token), false);
    assert.equal(tokenMatches(undefined, token), false);
    assert.equal(tokenMatches(null, token), false);
  });

  it("are read from ?token= first, else from Authorization: Bearer", () => {
    assert.equal(presentedToken(new URL("ws://h/?token=abc"), "Bearer xyz"), "abc");
    assert.equal(presentedToken(new URL("ws://h/"), "Bearer xyz"), "xyz");
    assert.equal(presentedToken(new URL("ws://h/"), "bearer  xyz "), "xyz");
    assert.equal(presentedToken(new URL("ws://h/"), "Basic xyz"), undefined);
    assert.equal(presentedToken(new URL("ws://h/"), undefined), undefined);
  });
});

describe("loopback hosts", () => {
  it("are 127/8, ::1 and localhost", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"]) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.2", "10.0.0.1", "example.com", "localhost.evil.com", ""]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
  });

  it("Host headers must name this machine (DNS rebinding sends the attacker's name)", () => {
    for (const header of ["127.0.0.1:8787", "localhost:8787", "[::1]:8787", "localhost"]) {
      assert.equal(hostHeaderAllowed(header), true, header);
    }
    for (const header of [undefined, "", "evil.example:8787", "127.0.0.1.nip.io:8787", "a b"]) {
      assert.equal(hostHeaderAllowed(header), false, String(header));
    }
  });
});

describe("origins", () => {
  it("allow the loopback origins on any port by default", () => {
    for (const origin of [
      "http://127.0.0.1:5173",
      "http://localhost:8787",
      "http://localhost",
      "http://[::1]:3000",
      "https://localhost:8443",
    ]) {
      assert.equal(originAllowed(origin, defaults), true, origin);
    }
  });

  it("refuse other origins, look-alikes and null by default", () => {
    for (const origin of [
      "http://evil.example",
      "http://localhost.evil.example:8787",
      "http://127.0.0.1.evil.example",
      "http://192.168.1.5:8787",
      "file://",
      "null",
      "chrome-extension://abcdef",
      "not a url",
      "http://localhost:8787/path",
    ]) {
      assert.equal(originAllowed(origin, defaults), false, origin);
    }
  });

  it("allow a request without Origin (not a browser; it still needs the token)", () => {
    assert.equal(originAllowed(undefined, defaults), true);
  });

  it("accept exact origins, port wildcards and null from --allow-origin", () => {
    const rules = [...defaults, ...["https://app.example", "http://dev.example:*", "null"].map(parseOriginRule)];
    assert.equal(originAllowed("https://app.example", rules), true);
    assert.equal(originAllowed("https://app.example:444", rules), false);
    assert.equal(originAllowed("http://app.example", rules), false);
    assert.equal(originAllowed("http://dev.example:9000", rules), true);
    assert.equal(originAllowed("https://dev.example:9000", rules), false);
    assert.equal(originAllowed("null", rules), true);
  });

  it("refuse --allow-origin values that are not origins", () => {
    for (const text of ["*", "example.com", "http://a.example/path", "ftp://a.example", "http://a.example:80:*", ""]) {
      assert.throws(() => parseOriginRule(text), /origin/i, text);
    }
  });
});
