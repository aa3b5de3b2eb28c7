/**
 * The whole extension UI around one session, as a pi user sees it: widgets above, the dialog host in place of the
 * prompt (inline, like pi's terminal UI), widgets below, the status line, toasts. The playground and the live page
 * both render this; only the session's transport differs.
 */
import type { PiSession } from "@pi-elements/core";
import { html, nothing } from "lit";

export function agentConsole(session: PiSession | undefined, options: { syncTitle?: boolean } = {}) {
  if (!session) return nothing;
  return html`
    <div class="console">
      <pi-widget-slot .session=${session} placement="aboveEditor"></pi-widget-slot>
      <pi-extension-ui .session=${session} ?sync-title=${options.syncTitle ?? true}>
        <pi-prompt .session=${session}></pi-prompt>
      </pi-extension-ui>
      <pi-widget-slot .session=${session} placement="belowEditor"></pi-widget-slot>
      <pi-status-bar .session=${session}></pi-status-bar>
      <pi-notifications .session=${session}></pi-notifications>
    </div>
  `;
}
