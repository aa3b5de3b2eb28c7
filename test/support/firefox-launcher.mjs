// The test runner's launcher for Firefox: @web/test-runner-chrome's launcher (puppeteer-core over WebDriver BiDi), a
// new one, and so a new Firefox, every few test files. It is that launcher through its public interface: the runner's
// calls and getPage(), which @web/test-runner-commands and test/support/plugins use for a launcher of type
// "puppeteer".
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromeLauncher } from "@web/test-runner-chrome";
import puppeteer from "puppeteer-core";

/** How many test files one Firefox runs before a new one takes over. */
const FILES_PER_FIREFOX = 6;
/** Files run at once, each in a Firefox of its own (where its tab is in front and has focus). */
const CONCURRENCY = 2;

/**
 * A new Firefox every FILES_PER_FIREFOX test files, each started in about 2 s on the run's one profile (a new profile
 * each time took 4 s). One Firefox kept for the whole run reused its tab, whose content process held about 2.5 GB
 * during the story tests, and in two of five full runs a key press in a later file (prompt-real-pi, its first Enter)
 * took from over 5 s to over 20 s to come back; never in that file run alone (nine runs, three of them with both
 * cores kept busy). A Firefox for each file ended that, at about 2 s a file on the run's critical path (57 files);
 * a Firefox for a few files bounds what one process can gather the same way for a fifth of the starts. Each Firefox
 * runs one file at a time (Firefox pauses requestAnimationFrame in a tab that is not in front, and only the front tab
 * has focus); two run side by side, each on a profile of its own (Firefox locks its profile). A Firefox-only run
 * used about 0.6 of the two cores with one at a time: the files wait on the page, not on the processor.
 * @implements {import("@web/test-runner-core").BrowserLauncher}
 */
export class FirefoxLauncher {
  name = "Firefox";
  type = "puppeteer";
  concurrency = CONCURRENCY;

  /** @type {import("puppeteer-core").LaunchOptions} */
  #launchOptions;
  /** @type {Parameters<import("@web/test-runner-core").BrowserLauncher["initialize"]> | undefined} */
  #init;
  /**
   * The Firefoxes side by side: each on the run's profile of its own (what a page stores carries over from file to
   * file, as it did in one Firefox), its launcher while it runs, how many files it was given, and whether one runs.
   * @type {{ profile: string, launcher: ReturnType<typeof chromeLauncher> | undefined, files: number, busy: boolean }[]}
   */
  #slots = [];
  /** Test session id → the slot running it. */
  #sessions = new Map();

  /** @param {import("puppeteer-core").LaunchOptions} launchOptions */
  constructor(launchOptions) {
    this.#launchOptions = launchOptions;
  }

  async initialize(config, testFiles) {
    this.#init = [config, testFiles];
    this.#slots = await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => ({
        profile: await mkdtemp(join(tmpdir(), "pi-elements-firefox-")),
        launcher: undefined,
        files: 0,
        busy: false,
      })),
    );
  }

  async startSession(sessionId, url) {
    if (!this.#init) throw new Error("The Firefox launcher is not initialised.");
    const slot = this.#slots.find((candidate) => !candidate.busy);
    if (!slot) throw new Error(`The Firefox launcher runs ${CONCURRENCY} files at once at most.`);
    slot.busy = true;
    this.#sessions.set(sessionId, slot);
    try {
      if (!slot.launcher) {
        slot.launcher = chromeLauncher({
          puppeteer,
          launchOptions: { ...this.#launchOptions, userDataDir: slot.profile },
          concurrency: 1,
        });
        slot.files = 0;
        await slot.launcher.initialize(...this.#init);
      }
      slot.files += 1;
      await slot.launcher.startSession(sessionId, url);
    } catch (error) {
      // A Firefox that failed to run a file runs no more.
      this.#sessions.delete(sessionId);
      await this.#retire(slot);
      throw error;
    }
  }

  isActive(sessionId) {
    return this.#sessions.get(sessionId)?.launcher?.isActive(sessionId) ?? false;
  }

  getBrowserUrl(sessionId) {
    return this.#launcher(sessionId).getBrowserUrl(sessionId);
  }

  /** The file's puppeteer page, for the commands of a "puppeteer" launcher. */
  getPage(sessionId) {
    return this.#launcher(sessionId).getPage(sessionId);
  }

  /** A Firefox that has run its share of files is closed with its last one, so nothing of its pages keeps running. */
  async stopSession(sessionId) {
    const slot = this.#slot(sessionId);
    try {
      return await this.#launcher(sessionId).stopSession(sessionId);
    } finally {
      this.#sessions.delete(sessionId);
      if (slot.files >= FILES_PER_FIREFOX) await this.#retire(slot);
      else slot.busy = false;
    }
  }

  async startDebugSession() {
    throw new Error("Firefox runs headless here: there is no window to debug in.");
  }

  async stop() {
    this.#sessions.clear();
    await Promise.all(this.#slots.map((slot) => this.#retire(slot)));
    await Promise.all(this.#slots.map((slot) => rm(slot.profile, { recursive: true, force: true })));
  }

  /** Closes the slot's Firefox; the slot's next file starts a new one. */
  async #retire(slot) {
    const { launcher } = slot;
    slot.launcher = undefined;
    slot.files = 0;
    try {
      await launcher?.stop();
    } finally {
      slot.busy = false;
    }
  }

  #slot(sessionId) {
    const slot = this.#sessions.get(sessionId);
    if (!slot) throw new Error(`No Firefox runs the test session ${sessionId}.`);
    return slot;
  }

  #launcher(sessionId) {
    const launcher = this.#slot(sessionId).launcher;
    if (!launcher) throw new Error(`The Firefox of the test session ${sessionId} has stopped.`);
    return launcher;
  }
}
