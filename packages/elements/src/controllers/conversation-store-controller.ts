/**
 * Keeps a Lit element in step with one slice of a session's conversation store (`conversationOf(session)` of
 * `@pi-elements/core/conversation`): ConversationSliceController, which makes the store when there is none yet.
 *
 * Asking for the store is what attaches it to the session: the store then asks pi for its state and keeps it fresh
 * under the core's refresh rule. An element using this controller sends commands with `session.send` and never
 * refreshes anything itself.
 */
import { type ConversationSnapshot, conversationOf } from "@pi-elements/core/conversation";
import { ConversationSliceController, type ConversationStoreHost } from "./conversation-slice-controller.js";
import type { StoreSliceOptions } from "./store-slice-controller.js";

export type { ConversationStoreHost };

export class ConversationStoreController<T> extends ConversationSliceController<T> {
  /**
   * `equals`: when the slice counts as unchanged; default `shallowEqual` (a selector may build a new object of parts).
   * `changed`: how a changed slice reaches the host (see ConversationSliceController).
   */
  constructor(
    host: ConversationStoreHost,
    select: (snapshot: ConversationSnapshot) => T,
    options: StoreSliceOptions<T> = {},
  ) {
    super(host, select, { ...options, lookup: conversationOf });
  }
}
