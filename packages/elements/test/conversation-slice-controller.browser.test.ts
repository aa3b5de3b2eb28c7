/**
 * ConversationSliceController (and ConversationStoreController, which makes the store): the slice an element reads is
 * always of the store in use, also in `willUpdate`, which Lit runs before the controllers' `hostUpdate`.
 */
import { expect, fixture, html } from "@open-wc/testing";
import type { PiSession } from "@pi-elements/core";
import { ConversationState, type ConversationStore } from "@pi-elements/core/conversation";
import { LitElement } from "lit";
import { ConversationStoreController } from "../src/controllers/conversation-store-controller.js";

class SliceReader extends LitElement {
  static override properties = { store: { attribute: false }, session: { attribute: false } };
  declare store: ConversationStore | undefined;
  declare session: PiSession | undefined;
  readonly controller = new ConversationStoreController(this, (snapshot) => snapshot.queue.steering);
  /** What `value` was in each willUpdate. */
  readonly seen: Array<readonly string[] | undefined> = [];
  protected override willUpdate(): void {
    this.seen.push(this.controller.value);
  }
}
customElements.define("slice-reader", SliceReader);

function storeWith(steering: string[]): ConversationState {
  const state = new ConversationState();
  state.apply({ type: "queue_update", steering, followUp: [] });
  return state;
}

describe("ConversationStoreController", () => {
  it("gives a store assigned since the last render its slice already in willUpdate", async () => {
    const first = storeWith(["first"]);
    const second = storeWith(["second"]);
    const el = await fixture<SliceReader>(html`<slice-reader .store=${first}></slice-reader>`);
    expect(el.seen.at(-1)).to.deep.equal(["first"]);
    el.store = second;
    await el.updateComplete;
    expect(el.seen.at(-1), "the new store's slice, not the old one's").to.deep.equal(["second"]);
  });
});
