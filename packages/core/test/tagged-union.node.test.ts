/**
 * The protocol's tagged unions (extension-UI requests, bridge messages, commands, responses) pick a member by one
 * field and validate the message in full with that member; anything else fails like zod would.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as z from "zod/mini";
import { BridgeAgentExit, BridgeMessage } from "../src/protocol/bridge.js";
import { RpcCommand } from "../src/protocol/commands.js";
import { ExtensionUiRequest } from "../src/protocol/extension-ui.js";
import { RpcResponse } from "../src/protocol/responses.js";

describe("tagged unions", () => {
  test("a message of a known kind is validated by its own member, extra fields kept where the member is loose", () => {
    const request = { type: "extension_ui_request", id: "a", method: "confirm", title: "T", message: "M", extra: 1 };
    assert.deepEqual(ExtensionUiRequest.parse(request), request);
    const wrong = ExtensionUiRequest.safeParse({ ...request, message: 42 });
    assert.equal(wrong.success, false);
    assert.deepEqual(
      wrong.error?.issues.map((issue) => issue.path),
      [["message"]],
    );
  });

  test("an unknown or missing tag fails on the tag, naming nothing it did not check", () => {
    for (const value of [
      { type: "extension_ui_request", id: "a", method: "custom" },
      { type: "extension_ui_request", id: "a" },
    ]) {
      const result = ExtensionUiRequest.safeParse(value);
      assert.equal(result.success, false);
      assert.deepEqual(
        result.error?.issues.map((issue) => issue.path),
        [["method"]],
      );
    }
    assert.equal(BridgeMessage.safeParse({ type: "pi-elements/unknown" }).success, false);
  });

  test("a value that is not an object fails, and parse throws zod's error", () => {
    for (const value of [null, undefined, "confirm", 42, [], [{ method: "confirm" }]]) {
      assert.equal(ExtensionUiRequest.safeParse(value).success, false, JSON.stringify(value));
    }
    assert.throws(
      () => RpcCommand.parse({ type: "nope" }),
      (error: { issues?: unknown[] }) => error instanceof Error && error.issues?.length === 1,
    );
  });

  test("a tag named like an Object member picks nothing", () => {
    for (const type of ["toString", "__proto__", "constructor"]) {
      assert.equal(RpcCommand.safeParse({ type }).success, false, type);
    }
  });

  test("an empty id and a negative timeout are too small; one character and 0 are not", () => {
    const input = { type: "extension_ui_request", id: "x", method: "input", title: "t", timeout: 0 };
    assert.equal(ExtensionUiRequest.safeParse(input).success, true);
    for (const [bad, path] of [
      [{ ...input, id: "" }, "id"],
      [{ ...input, timeout: -1 }, "timeout"],
    ] as const) {
      const result = ExtensionUiRequest.safeParse(bad);
      assert.deepEqual(
        result.error?.issues.map((issue) => [issue.code, issue.path]),
        [["too_small", [path]]],
      );
    }
  });

  test("strict members strip unknown keys; boolean tags pick their member", () => {
    assert.deepEqual(RpcCommand.parse({ type: "bash", command: "ls", junk: true }), { type: "bash", command: "ls" });
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: false }).success, false);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: false, error: "e" }).success, true);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: true }).success, true);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: "yes" }).success, false);
  });

  test("agent_exit's code and signal accept, reject and report exactly what z.nullable would", () => {
    const reference = z.looseObject({
      type: z.literal("pi-elements/agent_exit"),
      code: z.nullable(z.number()),
      signal: z.optional(z.nullable(z.string())),
      stderrTail: z.optional(z.array(z.string())),
    });
    const values = [undefined, null, 0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", "", false, {}, []];
    const cases: object[] = [{ type: "pi-elements/agent_exit" }];
    for (const code of values) {
      for (const signal of values) cases.push({ type: "pi-elements/agent_exit", code, signal, extra: 1 });
    }
    for (const value of cases) {
      const ours = BridgeAgentExit.safeParse(value);
      const theirs = reference.safeParse(value);
      assert.deepEqual(
        [ours.success, ours.data, ours.error?.issues],
        [theirs.success, theirs.data, theirs.error?.issues],
      );
    }
  });
});
