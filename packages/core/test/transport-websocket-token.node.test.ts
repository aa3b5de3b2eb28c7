/** The bridge token off the URL: what a WebSocket server sees when the transport connects with one. */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { WebSocket, WebSocketServer } from "ws";
import {
  PI_ELEMENTS_PROTOCOL,
  protocolToken,
  TOKEN_PROTOCOL_PREFIX,
  tokenProtocol,
  type WebSocketConstructorLike,
  WebSocketTransport,
  type WebSocketTransportOptions,
} from "../src/index.js";

let server: WebSocketServer;
let base: string;
const seen: IncomingMessage[] = [];
before(async () => {
  server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (_socket, request) => seen.push(request));
  await new Promise((resolve) => server.once("listening", resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** Connects, waits for the open, closes; returns what the server saw of the handshake. */
async function handshake(url: string, options: WebSocketTransportOptions = {}) {
  const transport = new WebSocketTransport(url, {
    WebSocket: WebSocket as unknown as WebSocketConstructorLike,
    reconnect: false,
    ...options,
  });
  const count = seen.length;
  await new Promise<void>((resolve) =>
    transport.addEventListener("state", (event) => event.value === "open" && resolve()),
  );
  while (seen.length === count) await new Promise((resolve) => setImmediate(resolve));
  transport.close();
  const request = seen.at(-1) as IncomingMessage;
  return { transport, path: request.url, protocols: request.headers["sec-websocket-protocol"] };
}

test("a ?token= in the URL goes in Sec-WebSocket-Protocol instead: the server's request URL has none", async () => {
  const { transport, path, protocols } = await handshake(`${base}/room?a=1&token=abc-DEF_123&b=2`);
  assert.equal(path, "/room?a=1&b=2");
  assert.equal(protocols, `${PI_ELEMENTS_PROTOCOL},${tokenProtocol("abc-DEF_123")}`);
  assert.equal(protocolToken(protocols), "abc-DEF_123");
  assert.equal(transport.url, `${base}/room?a=1&b=2`);
});

test("the token option does the same for a URL without one; other protocols follow the pi-elements ones", async () => {
  const { path, protocols } = await handshake(`${base}/`, { token: "t0k", protocols: ["chat", PI_ELEMENTS_PROTOCOL] });
  assert.equal(path, "/");
  assert.equal(protocols, `${PI_ELEMENTS_PROTOCOL},${tokenProtocol("t0k")},chat`);
  const plain = await handshake(`${base}/?x=1`, { protocols: "chat" });
  assert.equal(plain.protocols, "chat", "no token, no pi-elements protocols");
  assert.equal(plain.path, "/?x=1");
});

test("any token travels as a valid header token and decodes back", async () => {
  const token = 'ä b,c;"=/+é😀';
  const protocol = tokenProtocol(token);
  assert.match(protocol.slice(TOKEN_PROTOCOL_PREFIX.length), /^[A-Za-z0-9_-]+$/);
  const { path, protocols } = await handshake(`${base}/?token=${encodeURIComponent(token)}`);
  assert.equal(path, "/");
  assert.equal(protocolToken(protocols), token);
  assert.equal(protocolToken("chat, pi-elements.token.!!"), undefined, "not base64url");
  assert.equal(protocolToken("chat, pi-elements.token._w"), undefined, "not UTF-8");
  assert.equal(protocolToken(undefined), undefined);
});

test("a lost connection's diagnostic shows the URL with its token redacted", async () => {
  const transport = new WebSocketTransport("ws://127.0.0.1:1/?token=very-secret", {
    WebSocket: WebSocket as unknown as WebSocketConstructorLike,
    reconnect: false,
  });
  const messages: string[] = [];
  transport.addEventListener("diagnostic", (event) => messages.push(event.value.message));
  await new Promise<void>((resolve) =>
    transport.addEventListener("state", (event) => event.value === "closed" && resolve()),
  );
  assert.match(
    messages.join("\n"),
    /WebSocket ws:\/\/127\.0\.0\.1:1\/\?token=%E2%80%A6 closed; reconnecting is disabled/,
  );
  assert.ok(!messages.join("\n").includes("very-secret"));
});
