/**
 * pi's advice to sign in. When pi has no model or no key for its provider it answers a prompt with text such as "No
 * API key found for anthropic.\n\nUse /login to log into a provider via OAuth or API key…" (pi 0.73 and 1.x alike),
 * and some extensions notify "Configure … with /login <provider>". `/login` is a command of pi's terminal UI: in RPC
 * mode pi does not run it (typed into a prompt, it goes to the model as text), and pi reads its stored credentials
 * when it starts. A page that shows such a text says what to do instead (pi-elements' prompt and notifications do).
 */

/** `/login` as a command in a text: at its start or after a space, quote or bracket, and not part of a path or word. */
const LOGIN_COMMAND = /(?:^|[\s'"`(])\/login(?![\w/-])/;

/** Whether `text` tells the person to use pi's `/login` command, which a client of pi's RPC mode cannot run. */
export function mentionsLogin(text: string): boolean {
  return LOGIN_COMMAND.test(text);
}
