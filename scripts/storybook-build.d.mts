/** Types for storybook-build.mjs (kept as plain JS so the test runner's plugins can import it without a build). */
export declare function buildStorybook(out: string): Promise<void>;
