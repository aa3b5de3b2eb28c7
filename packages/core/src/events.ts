/**
 * A typed `EventTarget`: the platform's own dispatch, with `addEventListener` typed by an event map. Used by the
 * transports and the session so several of them on one page never share a listener list.
 */

export class TypedEventTarget<M extends Record<string, Event>> extends EventTarget {
  declare addEventListener: <K extends keyof M & string>(
    type: K,
    listener: ((event: M[K]) => void) | { handleEvent(event: M[K]): void } | null,
    options?: boolean | AddEventListenerOptions,
  ) => void;
  declare removeEventListener: <K extends keyof M & string>(
    type: K,
    listener: ((event: M[K]) => void) | { handleEvent(event: M[K]): void } | null,
    options?: boolean | EventListenerOptions,
  ) => void;
}

/** An event that carries one value, without CustomEvent's DOM baggage (works in Node 20 too). */
export class ValueEvent<T> extends Event {
  constructor(
    type: string,
    readonly value: T,
  ) {
    super(type);
  }
}
