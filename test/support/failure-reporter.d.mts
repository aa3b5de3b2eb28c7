/** See failure-reporter.mjs. */
export function failureReporter(): {
  onTestRunFinished(args: { sessions: Iterable<unknown> }): void;
};
