/**
 * Loaded into a fresh iframe by session.browser.test.ts: the consumers' entries are evaluated (and their tags
 * defined, upgrading the elements already in the page) before pi-session's, the order a page gets from importing
 * per-element entries in any order. Static imports run in the order written.
 */
import "../src/elements/prompt/define.js";
import "../src/elements/extension-ui/define.js";
import "../src/elements/status-bar/define.js";
import "../src/elements/session/define.js";
import { FakeAgent } from "./session-fake-agent.js";

const agent = new FakeAgent();
const provider = document.querySelector("pi-session");
if (provider) provider.session = agent.session;
(window as unknown as { agent: FakeAgent }).agent = agent;
