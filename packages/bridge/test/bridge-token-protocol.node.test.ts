/**
 * The token in the `Sec-WebSocket-Protocol` header (core's bridge-token.ts), through a real bridge around the fake
 * agent: accepted, refused like a wrong `?token=`, never echoed, never logged; and the core's WebSocketTransport,
 * given the printed `?token=` URL, sends it that way, as a recording proxy in front of the bridge shows.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  type Diagnostic,
  PI_ELEMENTS_PROTOCOL,
  TOKEN_REFUSED_CLOSE_CODE,
  tokenProtocol,
  type WebSocketConstructorLike,
  WebSocketTransport,
} from "@pi-elements/core";
import WebSocket from "ws";
import { type Rec, rawExchange, startFakeBridge, TestClient, withToken } from "./support/harness.js";

type Bridge = Awaited<ReturnType<typeof startFakeBridge>>;

/** A handshake request as bytes, with the given Sec-WebSocket-Protocol header. */
function handshake(port: number, protocols: string): string {
  return (
    `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: ${protocols}\r\n\r\n`
  );
}

describe("the token in Sec-WebSocket-Protocol", () => {
  let bridge: Bridge;
  let bare: string;
  before(async () => {
    bridge = await startFakeBridge();
    bare = withToken(bridge.url, undefined);
  });
  after(() => bridge.close());

  it("is accepted, and the bridge answers with pi-elements.v1 alone", async () => {
    const client = await TestClient.connect(bare, {
      protocols: [PI_ELEMENTS_PROTOCOL, tokenProtocol(bridge.token as string)],
    } as WebSocket.ClientOptions);
    assert.equal(client.socket.protocol, PI_ELEMENTS_PROTOCOL);
    await client.next((record: Rec) => record.type === "pi-elements/hello");
    await client.close();
  });

  it("a wrong one is refused (closed with 4401 before anything is sent), as a wrong ?token= is; neither is logged", async () => {
    const wrong = "wrong-but-secret";
    const inHeader = new TestClient(bare, { protocols: [PI_ELEMENTS_PROTOCOL, tokenProtocol(wrong)] } as never);
    assert.equal(await inHeader.answer, TOKEN_REFUSED_CLOSE_CODE);
    assert.equal(await new TestClient(withToken(bridge.url, wrong)).answer, TOKEN_REFUSED_CLOSE_CODE);
    assert.equal(await new TestClient(bare).answer, TOKEN_REFUSED_CLOSE_CODE, "no token at all");
    const logs = bridge.logs.join("\n");
    assert.match(logs, /401 token refused/);
    for (const secret of [wrong, tokenProtocol(wrong), bridge.token as string]) {
      assert.ok(!logs.includes(secret), `the logs carry ${secret}`);
    }
  });

  it("is never echoed: the answer names pi-elements.v1, another protocol offered, or none", async () => {
    const token = tokenProtocol(bridge.token as string);
    const answers = [
      await rawExchange(bridge.port, handshake(bridge.port, `${token}, ${PI_ELEMENTS_PROTOCOL}`)),
      await rawExchange(bridge.port, handshake(bridge.port, `${token}, chat`)),
      await rawExchange(bridge.port, handshake(bridge.port, token)),
    ];
    const protocol = (answer: string) => /\r\nSec-WebSocket-Protocol: ([^\r]*)\r\n/i.exec(answer)?.[1];
    for (const answer of answers) {
      assert.match(answer, /^HTTP\/1\.1 101 /);
      assert.ok(!answer.includes(token) && !answer.includes(bridge.token as string), answer);
    }
    assert.deepEqual(answers.map(protocol), [PI_ELEMENTS_PROTOCOL, "chat", undefined]);
  });
});

/** A TCP proxy to `port` that records the first bytes each connection sent (the handshake). */
async function recordingProxy(port: number) {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming) => {
    const outgoing = connect(port, "127.0.0.1");
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        incoming.destroy();
        outgoing.destroy();
      });
    }
    incoming.once("data", (chunk: Buffer) => requests.push(chunk.toString("latin1")));
    incoming.pipe(outgoing).pipe(incoming);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe("the core's WebSocketTransport with the printed ?token= URL", () => {
  it("connects with the token in the protocol header, not in the request URL; diagnostics carry none", async () => {
    const bridge = await startFakeBridge();
    const proxy = await recordingProxy(bridge.port);
    const token = bridge.token as string;
    try {
      const url = new URL(bridge.url);
      url.port = String(proxy.port);
      const transport = new WebSocketTransport(url.href, {
        WebSocket: WebSocket as unknown as WebSocketConstructorLike,
        framing: "jsonl",
        reconnect: false,
      });
      const diagnostics: Diagnostic[] = [];
      transport.addEventListener("diagnostic", (event) => diagnostics.push(event.value));
      const hello = new Promise<string>((resolve) =>
        transport.addEventListener("record", (event) => resolve(event.value)),
      );
      assert.match(await hello, /"pi-elements\/hello"/);
      assert.equal(transport.url, `ws://127.0.0.1:${proxy.port}/`);
      const [request = ""] = proxy.requests;
      assert.match(request, /^GET \/ HTTP\/1\.1\r\n/);
      assert.ok(!request.split("\r\n")[0]?.includes(token));
      assert.match(
        request,
        new RegExp(`\r\nSec-WebSocket-Protocol: ${PI_ELEMENTS_PROTOCOL}, ?${tokenProtocol(token)}\r\n`, "i"),
      );
      const closed = new Promise<void>((resolve) =>
        transport.addEventListener("state", (event) => event.value === "closed" && resolve()),
      );
      await bridge.close();
      await closed;
      assert.ok(diagnostics.length > 0, "the lost connection is reported");
      const text = JSON.stringify(diagnostics);
      assert.ok(!text.includes(token) && !text.includes(tokenProtocol(token)), text);
    } finally {
      proxy.close();
      await bridge.close();
    }
  });
});
