/**

 * Visual details a user notices: the action a dialog suggests reads as primary, and CJK or emoji options are as tall
 * as Latin ones.
 */
import { expect, fixture, html } from "@open-wc/testing";
import "../src/elements/confirm/define.js";
import "../src/elements/select/define.js";
import type { PiConfirm } from "../src/elements/confirm/confirm.js";
import type { PiSelect } from "../src/elements/select/select.js";
import { withoutArming } from "./support/dialogs.js";
import { FakeClock } from "./support/fake-clock.js";

withoutArming();

describe("visual polish", () => {
  it("a select's rows are equally tall whatever their script (Latin, Japanese, Chinese, emoji)", async () => {
    const options = ["main", "開発ブランチ", "功能分支", "🧪 experiment", "Ünïcödé"];
    const el = await fixture<PiSelect>(html`<pi-select heading="Branch" .options=${options}></pi-select>`);
    el.clock = new FakeClock();
    el.show();
    await el.updateComplete;
    const heights = [...el.shadowRoot!.querySelectorAll<HTMLElement>("[role=option]")].map(
      (row) => row.getBoundingClientRect().height,
    );
    for (const height of heights) expect(height).to.be.closeTo(heights[0]!, 0.5);
  });

  for (const theme of ["light", "dark"] as const) {
    it(`Yes, the primary action, is filled and reads apart from No (${theme})`, async () => {
      const el = await fixture<PiConfirm>(
        html`<pi-confirm theme=${theme} heading="Deploy?" message="To production"></pi-confirm>`,
      );
      el.clock = new FakeClock();
      el.show();
      await el.updateComplete;
      const yes = getComputedStyle(el.shadowRoot!.querySelector("[part~=yes-button]")!);
      const no = getComputedStyle(el.shadowRoot!.querySelector("[part~=no-button]")!);
      expect(yes.backgroundColor).to.not.equal(no.backgroundColor);
      expect(yes.color).to.not.equal(no.color);
      await expect(el).to.be.accessible();
    });
  }
});
