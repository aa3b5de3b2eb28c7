/** The ways a `PiSession.send` promise can fail besides a timeout (a `DOMException` named "TimeoutError"). */

/** pi answered the command with `success: false` (or with a response too malformed to use). */
export class PiCommandError extends Error {
  override name = "PiCommandError";
  constructor(
    /** The command's `type`, e.g. "prompt". */
    readonly command: string,
    message: string,
    /** The response as received, for logs. */
    readonly response?: unknown,
  ) {
    super(message);
  }
}

/** The session was closed before the command was answered (or `send` was called after `close`). */
export class PiSessionClosedError extends Error {
  override name = "PiSessionClosedError";
  constructor(message = "The pi session is closed.") {
    super(message);
  }
}
