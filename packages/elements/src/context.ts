/**
 * The context through which `<pi-session>` gives its session to every pi-* descendant (@lit/context). An element
 * with its own `session` property uses that one instead.
 */
import { createContext } from "@lit/context";
import type { PiSession } from "@pi-elements/core";

/** Keyed by a global symbol so two copies of the library on one page still find each other's provider. */
export const sessionContext = createContext<PiSession | undefined>(Symbol.for("pi-elements/session"));
