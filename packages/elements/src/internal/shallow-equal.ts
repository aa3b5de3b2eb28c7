/**
 * Whether two values are identical, or objects (arrays too) with the same own keys holding identical values. That is
 * "unchanged" for a slice of the UI snapshot built fresh from its parts (each part keeps its identity while it is
 * unchanged), and "the same" for two ANSI styles (which never hold a false or undefined key).
 */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}
