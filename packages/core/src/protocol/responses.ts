/** `{"type":"response"}`: pi's answer to a command, correlated by the echoed `id`. */
import "./zod.js";
import * as z from "zod/mini";
import { literal, string } from "./checked.js";
import { taggedUnion } from "./tagged-union.js";

export const RpcResponse = taggedUnion("success", [
  z.looseObject({
    type: literal("response"),
    id: z.optional(string()),
    command: string(),
    success: literal(true),
    data: z.optional(z.unknown()),
  }),
  z.looseObject({
    type: literal("response"),
    id: z.optional(string()),
    command: string(),
    success: literal(false),
    error: string(),
  }),
]);
export type RpcResponse = z.infer<(typeof RpcResponse.options)[number]>;
