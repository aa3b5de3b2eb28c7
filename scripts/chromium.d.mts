/** Types for chromium.mjs (kept as plain JS so the test runner's config can import it without a build). */
export declare const CHROMIUM_ARGS: string[];
export declare function chromiumPath(): string;
export declare function launchOptions(): { executablePath: string; headless: boolean; args: string[] };
