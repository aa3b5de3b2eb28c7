// The test runner's launcher for Firefox: @web/test-runner-chrome's launcher (puppeteer-core over WebDriver BiDi), a
// new one, and so a new Firefox, for each test file. It is that launcher through its public interface: the runner's
// calls and getPage(), which @web/test-runner-commands and test/support/plugins use for a launcher of type
// "puppeteer".
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromeLauncher } from "@web/test-runner-chrome";
import puppeteer from "puppeteer-core";

/**
 * One Firefox per test file, each started in about 2 s on the run's one profile (a new profile each time took 4 s).
 * One Firefox kept for the whole run reused its tab, whose content process held about 2.5 GB during the story tests,
 * and in two of five full runs a key press in a later file (prompt-real-pi, its first Enter) took from over 5 s to
 * over 20 s to come back; never in that file run alone (nine runs, three of them with both cores kept busy). One file
 * at a time: Firefox pauses requestAnimationFrame in a tab that is not in front, and only the front tab has focus.
 * @implements {import("@web/test-runner-core").BrowserLauncher}
 */
export class FirefoxLauncher {
  name = "Firefox";
  type = "puppeteer";
  concurrency = 1;

  /** @type {import("puppeteer-core").LaunchOptions} */
  #launchOptions;
  /** @type {Parameters<import("@web/test-runner-core").BrowserLauncher["initialize"]> | undefined} */
  #init;
  /** The run's Firefox profile: what a page stores carries over from file to file, as it did in one Firefox. */
  #profile = "";
  /** Test session id → the launcher (and Firefox) running it. */
  #sessions = new Map();

  /** @param {import("puppeteer-core").LaunchOptions} launchOptions */
  constructor(launchOptions) {
    this.#launchOptions = launchOptions;
  }

  async initialize(config, testFiles) {
    this.#init = [config, testFiles];
    this.#profile = await mkdtemp(join(tmpdir(), "pi-elements-firefox-"));
  }

  async startSession(sessionId, url) {
    if (!this.#init) throw new Error("The Firefox launcher is not initialised.");
    const launcher = chromeLauncher({
      puppeteer,
      launchOptions: { ...this.#launchOptions, userDataDir: this.#profile },
      concurrency: 1,
    });
    await launcher.initialize(...this.#init);
    this.#sessions.set(sessionId, launcher);
    try {
      await launcher.startSession(sessionId, url);
    } catch (error) {
      this.#sessions.delete(sessionId);
      await launcher.stop();
      throw error;
    }
  }

  isActive(sessionId) {
    return this.#sessions.get(sessionId)?.isActive(sessionId) ?? false;
  }

  getBrowserUrl(sessionId) {
    return this.#launcher(sessionId).getBrowserUrl(sessionId);
  }

  /** The file's puppeteer page, for the commands of a "puppeteer" launcher. */
  getPage(sessionId) {
    return this.#launcher(sessionId).getPage(sessionId);
  }

  /** The file's Firefox is closed, so nothing of its page keeps running. */
  async stopSession(sessionId) {
    const launcher = this.#launcher(sessionId);
    try {
      return await launcher.stopSession(sessionId);
    } finally {
      this.#sessions.delete(sessionId);
      await launcher.stop();
    }
  }

  async startDebugSession() {
    throw new Error("Firefox runs headless here: there is no window to debug in.");
  }

  async stop() {
    const launchers = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(launchers.map((launcher) => launcher.stop()));
    if (this.#profile) await rm(this.#profile, { recursive: true, force: true });
  }

  #launcher(sessionId) {
    const launcher = this.#sessions.get(sessionId);
    if (!launcher) throw new Error(`No Firefox runs the test session ${sessionId}.`);
    return launcher;
  }
}
