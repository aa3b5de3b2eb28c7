/**
 * The context through which `<pi-session>` gives its session to every pi-* descendant (@lit/context). An element
 * with its own `session` property uses that one instead.
 */
import { type Context, ContextRoot, createContext } from "@lit/context";
import type { PiSession } from "@pi-elements/core";

/** One root per page, shared by every copy of the library (the context key is global too). */
const ROOT_KEY = Symbol.for("pi-elements/context-root");

/**
 * Custom elements upgrade in the order their tags are defined, not in document order: a `pi-prompt` defined before
 * `pi-session` asks for the session before its provider exists, and @lit/context alone never answers it again. A
 * ContextRoot on the document keeps such unanswered requests and replays them when a provider connects (the
 * provider announces itself with a `context-provider` event). It is attached when this module is first evaluated,
 * which every consumer's module does before the consumer can connect.
 */
function withContextRoot<T extends Context<unknown, unknown>>(context: T): T {
  const holder = globalThis as { [ROOT_KEY]?: ContextRoot };
  if (typeof document !== "undefined" && !holder[ROOT_KEY]) {
    holder[ROOT_KEY] = new ContextRoot();
    holder[ROOT_KEY].attach(document as unknown as HTMLElement);
  }
  return context;
}

/** Keyed by a global symbol so two copies of the library on one page still find each other's provider. */
export const sessionContext = withContextRoot(createContext<PiSession | undefined>(Symbol.for("pi-elements/session")));
