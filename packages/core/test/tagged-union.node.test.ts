/**
 * The protocol's tagged unions (extension-UI requests, bridge messages, commands, responses) pick a member by one
 * field and validate the message in full with that member; anything else fails like zod would.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as z from "zod/mini";
import { BridgeAgentExit, BridgeAgentStart, BridgeMessage } from "../src/protocol/bridge.js";
import { arrayOf, literal, number, string } from "../src/protocol/checked.js";
import { type CommandType, RpcCommand, type ThinkingLevel } from "../src/protocol/commands.js";
import { ExtensionUiRequest, type NotifyType, type SelectRequest } from "../src/protocol/extension-ui.js";
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
    assert.deepEqual(ExtensionUiRequest.safeParse({ ...input, id: "", timeout: -1 }).error?.issues, [
      {
        code: "too_small",
        origin: "string",
        minimum: 1,
        inclusive: true,
        message: "Too small: expected a string of length >= 1",
        path: ["id"],
      },
      {
        code: "too_small",
        origin: "number",
        minimum: 0,
        inclusive: true,
        message: "Too small: expected a number >= 0",
        path: ["timeout"],
      },
    ]);
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

/** Both results of one input, with the issues' keys in zod's order (deepEqual ignores order, JSON would not). */
function outcome(schema: z.ZodMiniType, value: unknown) {
  const result = schema.safeParse(value);
  return [result.success, result.data, result.error?.issues.map((issue) => Object.entries(issue))];
}
function assertSameAsZod(ours: z.ZodMiniType, theirs: z.ZodMiniType, values: unknown[]) {
  for (const value of values) assert.deepEqual(outcome(ours, value), outcome(theirs, value), String(value));
}

describe("schema kinds checked on z.unknown()", () => {
  const scalars = [0, -1, 1.5, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1n];
  const others = [undefined, null, "", "1", true, false, {}, [], ["a"], new Number(1), () => 1];
  const image = { type: "image", data: "d", mimeType: "image/png" };
  const Image = z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string() });

  test("string() accepts, rejects and reports exactly what z.string() does", () => {
    const values = ["", "a", "\n", new String("a"), Symbol.iterator, ...scalars, ...others];
    assertSameAsZod(string(), z.string(), values);
    assertSameAsZod(z.optional(string()), z.optional(z.string()), values);
    const shape = (s: z.ZodMiniType) => z.looseObject({ s, t: z.optional(s) });
    const objects = values.flatMap((s) => [{ s }, { s, t: s }, { t: s }]);
    assertSameAsZod(shape(string()), shape(z.string()), [...objects, {}, null]);
  });

  test("literal() accepts, rejects and reports exactly what z.literal() does", () => {
    const values = ["", "a", "b", "A", 1, "1", -0, 0, true, "true", null, undefined, Number.NaN, 1n, {}, ["a"]];
    type Set = z.core.util.Literal | z.core.util.Literal[];
    const sets: Set[] = [["a"], "a", ["a", "b"], 1, 0, [true, false], true, null, [null, undefined], 1n];
    const zods = (set: Set) => (Array.isArray(set) ? z.literal(set) : z.literal(set));
    for (const set of sets) {
      assertSameAsZod(literal(set), zods(set), values);
      assertSameAsZod(z.optional(literal(set)), z.optional(zods(set)), values);
      const shape = (l: z.ZodMiniType) => z.looseObject({ l, m: z.optional(l) });
      const objects = values.flatMap((l) => [{ l }, { l, m: l }, { m: l }]);
      assertSameAsZod(shape(literal(set)), shape(zods(set)), [...objects, {}, null]);
    }
    assert.deepEqual(literal(["a", "b"]).values, ["a", "b"]);
    assert.deepEqual(literal("a").values, ["a"]);
  });

  test("number() accepts, rejects and reports exactly what z.number() does", () => {
    assertSameAsZod(number(), z.number(), [...scalars, ...others]);
    assertSameAsZod(z.optional(number()), z.optional(z.number()), [...scalars, ...others]);
    const shape = (n: z.ZodMiniType) => z.looseObject({ n, m: z.optional(n) });
    const objects = [...scalars, ...others].flatMap((n) => [{ n }, { n, m: n }, { m: n }]);
    assertSameAsZod(shape(number()), shape(z.number()), [...objects, {}, null]);
  });

  test("arrayOf() accepts, rejects, reports and outputs exactly what z.array() does", () => {
    const arrays = [
      [],
      ["a", ""],
      ["a", 1, null, "b", undefined],
      [[]],
      [image, { ...image, extra: 1 }],
      [image, { type: "text" }, 5, null, { ...image, data: 7 }],
      JSON.parse('[{"type":"image","data":"d","mimeType":"m","__proto__":{"polluted":true}}]'),
      Object.assign(["a"], { extra: 1 }),
    ];
    const values = [...arrays, ...scalars, ...others, { length: 1, 0: "a" }, "ab", new Set(["a"])];
    assertSameAsZod(arrayOf(z.string()), z.array(z.string()), values);
    assertSameAsZod(arrayOf(Image), z.array(Image), values);
    assertSameAsZod(z.optional(arrayOf(Image)), z.optional(z.array(Image)), values);
    assertSameAsZod(arrayOf(arrayOf(z.string())), z.array(z.array(z.string())), [...values, [["a"], ["b", 2]], [[1]]]);
    const shape = (xs: z.ZodMiniType) => z.looseObject({ xs, more: z.optional(xs) });
    const objects = values.flatMap((xs) => [{ xs }, { xs, more: xs }, { more: xs }]);
    assertSameAsZod(shape(arrayOf(Image)), shape(z.array(Image)), [...objects, {}, null]);
    const parsed = arrayOf(Image).parse([{ ...image, extra: 1 }]);
    assert.deepEqual(parsed, [{ ...image, extra: 1 }]);
  });

  test("the messages that use them keep their types and outcomes", () => {
    const options: string[] = ({ options: [] } as unknown as SelectRequest).options;
    assert.deepEqual(options, []);
    // The literal types stay exact: nothing outside their sets type-checks.
    const typed: [CommandType, ThinkingLevel, NotifyType] = ["prompt", "xhigh", "warning"];
    // @ts-expect-error not a command
    const command: CommandType = "nope";
    // @ts-expect-error not a thinking level
    const level: ThinkingLevel = "max";
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
