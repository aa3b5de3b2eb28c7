/**
 * Schema kinds built as one check on `z.unknown()` instead of zod's own classes. Each zod class a schema uses adds
 * its code to the single-file element bundle: z.string and z.nullable 0.1 KB each, z.literal 0.13 KB, z.number and
 * z.array together 0.4 KB (min + gzip), each for what a few lines do here. Each helper accepts, rejects and reports exactly
 * what the zod schema named in its comment does, with the same output (test/tagged-union.node.test.ts compares them
 * on the same inputs). An inner schema's issues come back from its `safeParse` finished (message set, input left
 * out), and zod passes finished issues on as they are. A finished issue no longer carries zod's internal `continue`
 * flag, which only non-aborting checks such as `minLength` set; no schema wrapped here has one.
 */
import "./zod.js";
import * as z from "zod/mini";

type Issue = z.core.$ZodRawIssue;

/** A schema whose output type is `T`, accepting what `check` reports no issue for. */
function fromCheck<T>(check: z.core.CheckFn<unknown>): z.ZodMiniType<T> {
  return z.unknown().check(check) as z.ZodMiniType<unknown> as z.ZodMiniType<T>;
}

/** `inner` or null, as `z.nullable(inner)`: null passes, anything else is `inner`'s to judge. */
export function orNull<T>(inner: z.ZodMiniType<T>): z.ZodMiniType<T | null> {
  return fromCheck((ctx) => {
    if (ctx.value !== null) ctx.issues.push(...((inner.safeParse(ctx.value).error?.issues ?? []) as Issue[]));
  });
}

/** A string, as `z.string()`. */
export function string(): z.ZodMiniType<string> {
  return fromCheck((ctx) => {
    if (typeof ctx.value !== "string") ctx.issues.push({ expected: "string", code: "invalid_type", input: ctx.value });
  });
}

/** A finite number, as `z.number()`: NaN and ±Infinity fail, named in the issue's `received` as zod names them. */
export function number(): z.ZodMiniType<number> {
  return fromCheck((ctx) => {
    const value = ctx.value;
    if (Number.isFinite(value)) return;
    const issue: Issue = { expected: "number", code: "invalid_type", input: value };
    if (typeof value === "number") issue.received = String(value);
    ctx.issues.push(issue);
  });
}

/**
 * An array of `element`, as `z.array(element)`: each item is validated, its issues carry the item's index in their
 * path, and the output is a new array of the items' outputs.
 */
export function arrayOf<T>(element: z.ZodMiniType<T>): z.ZodMiniType<T[]> {
  return fromCheck((ctx) => {
    if (!Array.isArray(ctx.value)) {
      ctx.issues.push({ expected: "array", code: "invalid_type", input: ctx.value });
      return;
    }
    ctx.value = ctx.value.map((item, index) => {
      const result = element.safeParse(item);
      for (const issue of result.error?.issues ?? []) {
        ctx.issues.push({ ...issue, path: [index, ...issue.path] } as Issue);
      }
      return result.data;
    });
  });
}

/** A literal schema's accepted values, readable by `taggedUnion` to build its tag table. */
export type Literal<T extends z.core.util.Literal> = z.ZodMiniType<T> & { readonly values: readonly T[] };

/**
 * One of `values` (or the one value), as `z.literal(values)`: compared as a Set compares (`===`, NaN equal to
 * itself), and a miss is zod's `invalid_value` issue listing the accepted values.
 */
export function literal<const T extends z.core.util.Literal>(values: T | readonly T[]): Literal<T> {
  const list = (Array.isArray(values) ? values : [values]) as T[];
  const accepted = new Set<unknown>(list);
  const schema = fromCheck<T>((ctx) => {
    if (!accepted.has(ctx.value)) ctx.issues.push({ code: "invalid_value", values: list, input: ctx.value });
  });
  return Object.assign(schema, { values: list });
}
