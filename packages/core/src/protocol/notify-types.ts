/**
 * The notify types pi 0.73.1 sends, in a module of its own so the store can check a type without loading the
 * protocol's schemas (and zod with them): a page that only shows a store's state stays light.
 */
export const NOTIFY_TYPES = ["info", "warning", "error"] as const;
