/**
 * The protocol's discriminated unions (extension-UI requests, bridge messages, commands, responses) pick a member by
 * one field and validate the message in full with that member; anything else fails on the tag.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BridgeAgentExit, BridgeAgentStart, BridgeMessage } from "../src/protocol/bridge.js";
import { type CommandType, RpcCommand, type ThinkingLevel } from "../src/protocol/commands.js";
import { ExtensionUiRequest, type NotifyType, type SelectRequest } from "../src/protocol/extension-ui.js";
import { RpcResponse } from "../src/protocol/responses.js";

describe("protocol unions", () => {
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
    assert.deepEqual(
      ExtensionUiRequest.safeParse({ ...input, id: "", timeout: -1 }).error?.issues.map((issue) => {
        const { code, path } = issue;
        return { code, path, ...(issue.code === "too_small" ? { origin: issue.origin, minimum: issue.minimum } : {}) };
      }),
      [
        { code: "too_small", path: ["id"], origin: "string", minimum: 1 },
        { code: "too_small", path: ["timeout"], origin: "number", minimum: 0 },
      ],
    );
  });

  test("strict members strip unknown keys; boolean tags pick their member", () => {
    assert.deepEqual(RpcCommand.parse({ type: "bash", command: "ls", junk: true }), { type: "bash", command: "ls" });
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: false }).success, false);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: false, error: "e" }).success, true);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: true }).success, true);
    assert.equal(RpcResponse.safeParse({ type: "response", command: "x", success: "yes" }).success, false);
  });

  test("agent_exit's code is a finite number or null; signal, if given, a string or null", () => {
    const exit = (fields: object) => BridgeAgentExit.safeParse({ type: "pi-elements/agent_exit", ...fields });
    for (const fields of [{ code: 0 }, { code: null, signal: "SIGKILL" }, { code: 1, signal: null, stderrTail: [] }]) {
      assert.equal(exit(fields).success, true, JSON.stringify(fields));
    }
    for (const fields of [
      {},
      { code: undefined },
      { code: "1" },
      { code: Number.NaN },
      { code: Number.POSITIVE_INFINITY },
      { code: 0, signal: 9 },
      { code: 0, stderrTail: ["a", 1] },
    ]) {
      assert.equal(exit(fields).success, false, String(JSON.stringify(fields)));
    }
    assert.deepEqual(exit({ code: null, extra: 1 }).data, { type: "pi-elements/agent_exit", code: null, extra: 1 });
  });
});

describe("the messages built from them", () => {
  test("keep their types and outcomes", () => {
    const options: string[] = ({ options: [] } as unknown as SelectRequest).options;
    assert.deepEqual(options, []);
    // The literal types stay exact: nothing outside their sets type-checks.
    const typed: [CommandType, ThinkingLevel, NotifyType] = ["prompt", "xhigh", "warning"];
    // @ts-expect-error not a command
    const command: CommandType = "nope";
    // @ts-expect-error not a thinking level
    const level: ThinkingLevel = "extreme";
    // @ts-expect-error not a notify type
    const notifyType: NotifyType = "debug";
    assert.notDeepEqual(typed, [command, level, notifyType]);
    assert.deepEqual(BridgeAgentStart.parse({ type: "pi-elements/agent_start", pid: 7 }).pid, 7);
    const input = { type: "extension_ui_request", id: "x", method: "input", title: "t" };
    for (const [timeout, codes] of [
      ["5", ["invalid_type"]],
      [Number.NaN, ["invalid_type"]],
      [-1, ["too_small"]],
      [0, undefined],
    ] as const) {
      const result = ExtensionUiRequest.safeParse({ ...input, timeout });
      assert.deepEqual(
        result.error?.issues.map((issue) => issue.code),
        codes,
      );
    }
    const select = { type: "extension_ui_request", id: "s", method: "select", title: "t", options: ["a", 2] };
    assert.deepEqual(
      ExtensionUiRequest.safeParse(select).error?.issues.map((issue) => [issue.code, issue.path]),
      [["invalid_type", ["options", 1]]],
    );
    const prompt = { type: "prompt", message: "m", images: [{ type: "image", data: "d", mimeType: 1 }] };
    assert.deepEqual(
      RpcCommand.safeParse(prompt).error?.issues.map((issue) => issue.path),
      [["images", 0, "mimeType"]],
    );
  });
});
