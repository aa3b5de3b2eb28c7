/**
 * The recorded conversations (test/fixtures/conversation/<version>/<scenario>.jsonl and .sent.json, re-recorded by
 * scripts/record-conversation.ts; the folder's README.md says what each shows and how the versions differ), loaded
 * for tests: every test that reduces a conversation can run on each version's recording of each scenario.
 */
import { readFileSync } from "node:fs";

export const CONVERSATION_VERSIONS = ["0.73.1", "1.6.0"] as const;
export type ConversationVersion = (typeof CONVERSATION_VERSIONS)[number];

export const CONVERSATION_SCENARIOS = [
  "text",
  "markdown",
  "thinking",
  "tools",
  "error",
  "retry",
  "abort",
  "abort-tool",
  "steer",
  "compaction",
  "bash",
  "custom",
] as const;
export type ConversationScenario = (typeof CONVERSATION_SCENARIOS)[number];

export type RecordedMessage = Record<string, unknown>;

export interface SentLine {
  /** How many stdout records had arrived when the line was written. */
  afterRecords: number;
  line: string;
}

export interface RecordedConversation {
  version: ConversationVersion;
  scenario: ConversationScenario;
  /** pi's stdout, byte for byte. */
  bytes: Buffer;
  /** Its lines, without the LF. */
  lines: string[];
  /** Each line, parsed. */
  records: RecordedMessage[];
  /** What was written to pi's stdin, in order. */
  sent: SentLine[];
  /** pi's command line (paths inside the repository as `<root>/`). */
  argv: string[];
  /** What the scenario shows. */
  about: string;
}

export const CONVERSATION_FIXTURES = new URL("../../../test/fixtures/conversation/", import.meta.url);

export function loadConversation(version: ConversationVersion, scenario: ConversationScenario): RecordedConversation {
  const dir = new URL(`${version}/`, CONVERSATION_FIXTURES);
  const bytes = readFileSync(new URL(`${scenario}.jsonl`, dir));
  const text = bytes.toString("utf8");
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  const records = lines.map((line) => JSON.parse(line) as RecordedMessage);
  const recorded = JSON.parse(readFileSync(new URL(`${scenario}.sent.json`, dir), "utf8")) as {
    pi: string;
    scenario: string;
    about: string;
    argv: string[];
    sent: SentLine[];
  };
  if (recorded.pi !== version || recorded.scenario !== scenario) {
    throw new Error(`${version}/${scenario}.sent.json says it is ${recorded.pi}/${recorded.scenario}`);
  }
  return { version, scenario, bytes, lines, records, sent: recorded.sent, argv: recorded.argv, about: recorded.about };
}
