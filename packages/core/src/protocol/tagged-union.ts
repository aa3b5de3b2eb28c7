/**
 * A union of object schemas told apart by one literal field (`method`, `type`, `success`; a `literal` of checked.ts,
 * whose values fill the table), checked by looking that field up in the table and running only the matching member's
 * schema: every message is still validated in full by
 * its own member. It stands in for zod's `discriminatedUnion` and `union`, which add about 0.8 KB (min + gzip) to
 * the single-file element bundle for what one lookup does. `safeParse` and `parse` behave like zod's: the same
 * result shape, a real zod error, unknown keys kept or stripped as the member schema says. A value that is not an
 * object, or whose tag matches no member, fails with the issue zod reports for `{ [key]: literal(tags) }`.
 */
import "./zod.js";
import * as z from "zod/mini";
import { type Literal, literal } from "./checked.js";

type Member = z.ZodMiniObject<z.core.$ZodShape, z.core.$ZodObjectConfig>;

export interface TaggedUnion<M extends readonly Member[]> {
  /** The field whose literal value picks the member. */
  readonly key: string;
  readonly options: M;
  safeParse(value: unknown): z.core.util.SafeParseResult<z.output<M[number]>>;
  /** Throws the zod error when the value does not fit. */
  parse(value: unknown): z.output<M[number]>;
}

export function taggedUnion<const M extends readonly Member[]>(key: string, options: M): TaggedUnion<M> {
  const table = new Map<unknown, Member>();
  for (const member of options) {
    const tag = member.shape[key] as Literal<z.core.util.Literal> | undefined;
    for (const value of tag?.values ?? []) table.set(value, member);
  }
  const unknownTag = z.looseObject({ [key]: literal([...table.keys()] as z.core.util.Literal[]) });
  const safeParse = (value: unknown) => {
    const tag = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    const member = table.get(tag) ?? unknownTag;
    return member.safeParse(value) as z.core.util.SafeParseResult<z.output<M[number]>>;
  };
  return {
    key,
    options,
    safeParse,
    parse(value) {
      const result = safeParse(value);
      if (!result.success) throw result.error;
      return result.data;
    },
  };
}
