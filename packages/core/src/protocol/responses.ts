/** `{"type":"response"}`: pi's answer to a command, correlated by the echoed `id`. */
import * as z from "zod/mini";

export const RpcResponse = z.discriminatedUnion("success", [
  z.looseObject({
    type: z.literal("response"),
    id: z.optional(z.string()),
    command: z.string(),
    success: z.literal(true),
    data: z.optional(z.unknown()),
  }),
  z.looseObject({
    type: z.literal("response"),
    id: z.optional(z.string()),
    command: z.string(),
    success: z.literal(false),
    error: z.string(),
  }),
]);
export type RpcResponse = z.infer<typeof RpcResponse>;
