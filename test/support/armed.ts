/**
 * For the Playwright end-to-end tests: a dialog ignores presses for its first moments on screen (its arming time,
 * 500 ms by default), so a test that answers with keys waits, as a user does, until no dialog on the page arms.
 * (Playwright's clicks wait by themselves: an arming dialog's controls are `aria-disabled`.)
 */
import type { Page } from "playwright-core";

export async function dialogsArmed(page: Page): Promise<void> {
  await page.locator("[part~=arming]").first().waitFor({ state: "detached" });
}
