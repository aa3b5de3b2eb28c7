/** Types for browsers.mjs (plain JS so the test runner's config can import it without a build). */
export declare const ALL_ENGINES: string[];
export declare function engines(): ("chromium" | "firefox" | "webkit")[];
export declare function firefoxPath(): string;
export declare function webkitDriverPath(): string;
export declare function miniBrowserPath(): string;
export declare function firefoxLaunchOptions(): {
  browser: "firefox";
  executablePath: string;
  headless: boolean;
  extraPrefsFirefox: Record<string, unknown>;
};
export declare function webkitCapabilities(): {
  browserName: string;
  "wdio:enforceWebDriverClassic": boolean;
  "webkitgtk:browserOptions": { binary: string; args: string[] };
};
export declare function startXvfb(): Promise<{ display: string; pid: number | undefined; stop(): Promise<void> }>;
export declare function startWebKitDriver(): Promise<{
  hostname: string;
  port: number;
  display: string;
  stop(): Promise<void>;
}>;
