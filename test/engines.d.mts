// Types for test/engines.mjs (plain JS so the test runner's config imports it without a build).
export declare const ENGINE_EXCEPTIONS: { files: string[]; engines: string[]; why: string }[];
export declare function enginesFor(file: string): string[];
export declare function browserTestFiles(): string[];
export declare function plan(wanted?: string[], selection?: string): Map<string, string[]>;
export declare function enginesTable(): string;
