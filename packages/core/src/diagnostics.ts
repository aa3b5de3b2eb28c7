/** Every protocol problem the core notices is reported as one `Diagnostic`; none of them stops a session. */

export type DiagnosticCode =
  /** A record that is not JSON. */
  | "invalid-json"
  /** A line longer than the decoder's maximum; it was dropped. */
  | "line-too-long"
  /** JSON that is not a message this client understands (no string `type`, wrong response shape, ...). */
  | "invalid-message"
  /** An extension_ui_request whose fields do not match its method. Dialogs are answered cancelled. */
  | "invalid-ui-request"
  /** An extension_ui_request with a method this client cannot present. Answered cancelled when it has an id. */
  | "unsupported-ui-method"
  /** A dialog request whose id is already pending; the duplicate is ignored. */
  | "duplicate-request-id"
  /** A response whose id matches no command in flight. */
  | "unknown-response-id"
  /** A transport could not deliver or accept a record (queue full, channel closed, ...). */
  | "transport";

export interface Diagnostic {
  code: DiagnosticCode;
  message: string;
  /** At most 120 characters of the offending input, for logs. */
  excerpt?: string;
  /** The request or command id involved, when there is one. */
  id?: string;
}

const EXCERPT_LENGTH = 120;

/** What a caught value says: an Error's message, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function excerpt(text: string): string {
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH - 1)}…`;
}
