/** Helpers shared by the transport tests (browser and Node): event recorders. Time: test/support/manual-clock.ts. */

type ValueTarget = { addEventListener(type: string, listener: (event: Event) => void): void };

/** Every value of `type` events, in order, from now on. */
export function collect<T>(target: ValueTarget, type: string): T[] {
  const values: T[] = [];
  target.addEventListener(type, (event) => values.push((event as Event & { value: T }).value));
  return values;
}

/** The value of the next `type` event that satisfies `accept`. */
export function nextValue<T>(
  target: ValueTarget,
  type: string,
  accept: (value: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    target.addEventListener(type, (event) => {
      const value = (event as Event & { value: T }).value;
      if (accept(value)) resolve(value);
    });
  });
}

/** Resolves once `count` values have been collected into `values` (checked on each `type` event). */
export function untilCount<T>(target: ValueTarget, type: string, values: T[], count: number): Promise<T[]> {
  if (values.length >= count) return Promise.resolve(values);
  return new Promise((resolve) => {
    target.addEventListener(type, () => {
      if (values.length >= count) resolve(values);
    });
  });
}
