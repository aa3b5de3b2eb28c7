/** Types for storybook-build.mjs (kept as plain JS so the test runner's plugins can import it without a build). */
export declare function buildStorybook(out: string): Promise<void>;
/** The folder under demo/ the test command's workshop step built Storybook into (PI_STORYBOOK_BUILT), if any. */
export function builtStorybook(): string | undefined;
