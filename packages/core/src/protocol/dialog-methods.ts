/**
 * The extension-UI method lists and the check of a dialog's answer, in a module of their own (plain values, no
 * schemas) so the dialogs' life (`Dialogs`, `LocalSession`) can be loaded without the protocol's schemas and zod
 * with them: a dialog element used on its own stays light. `extension-ui.ts` re-exports all of it.
 */
import type { DialogRequest } from "./extension-ui.js";

/** The four methods that block the agent until a response with the same id arrives. */
export const DIALOG_METHODS = ["select", "confirm", "input", "editor"] as const;
export type DialogMethod = (typeof DIALOG_METHODS)[number];
/** The five methods the agent sends and forgets. */
export const FIRE_AND_FORGET_METHODS = ["notify", "setStatus", "setWidget", "setTitle", "set_editor_text"] as const;
export type FireAndForgetMethod = (typeof FIRE_AND_FORGET_METHODS)[number];

export function isDialogMethod(method: unknown): method is DialogMethod {
  return (DIALOG_METHODS as readonly unknown[]).includes(method);
}

/** What a user's answer to a dialog is, before it is addressed to a request id. */
export type DialogAnswer = { value: string } | { confirmed: boolean } | { cancelled: true };

/**
 * The answer's fields as they go to the agent, or undefined when the answer does not fit the request: confirm takes
 * `{confirmed: boolean}`, select a `{value}` that is one of its options, input and editor a string `{value}`; each
 * also takes `{cancelled: true}`, which wins over any other field. The one check of an answer's shape, used by the
 * session before it sends one and by the bridge before it forwards one (pi itself checks nothing, so an answer it
 * would take but no presentation of the dialog can give is refused).
 */
export function answerFields(
  request: DialogRequest,
  answer: unknown,
): { value: string } | { confirmed: boolean } | { cancelled: true } | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { cancelled, confirmed, value } = answer as { cancelled?: unknown; confirmed?: unknown; value?: unknown };
  if (cancelled === true) return { cancelled: true };
  if (request.method === "confirm") return typeof confirmed === "boolean" ? { confirmed } : undefined;
  if (typeof value !== "string") return undefined;
  if (request.method === "select" && !request.options.includes(value)) return undefined;
  return { value };
}
