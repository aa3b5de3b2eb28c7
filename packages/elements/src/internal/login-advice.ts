import { mentionsLogin } from "@pi-elements/core";
import { html, nothing } from "lit";
import { localizeOwn } from "../i18n/localize.js";
import type { StringTable } from "../i18n/strings.js";

/**
 * After a text of pi's that says to use /login (which only pi's terminal runs, core's `mentionsLogin`), what to do
 * instead, in the element's language: part `login-advice`. Nothing for any other text. pi-prompt's error and
 * pi-notifications' toasts show it; `text` is plain (ANSI styling stripped).
 */
export function loginAdvice(element: Element & { strings: StringTable | undefined }, text: string) {
  return mentionsLogin(text) ? html`<span part="login-advice">${localizeOwn(element, "loginAdvice")}</span>` : nothing;
}
