/**
 * Keeps a Lit element in step with one slice of a session's conversation store (StoreSliceController). The store is
 * the host's own `store` property when it has one set (any `ConversationStore`: standalone use, tests), else the one
 * `lookup` gives for the session in use (the host's `session` property, else an ancestor `<pi-session>`'s).
 *
 * This class looks the store up without making it (`attachedConversation`): it follows the conversation only when
 * something on the page keeps it (a transcript, the host's `conversationOf(session)`), and picks it up when that
 * happens, so an element of the extension UI's single file can show it without carrying the reducer.
 * ConversationStoreController makes the store.
 */
import type { PiSession } from "@pi-elements/core";
import {
  attachedConversation,
  type ConversationSnapshot,
  type ConversationStore,
  onConversationAttached,
} from "@pi-elements/core/conversation";
import { type SliceHost, StoreSliceController, type StoreSliceOptions } from "./store-slice-controller.js";

export type ConversationStoreHost = SliceHost & { store?: ConversationStore | undefined };

export interface ConversationSliceOptions<T> extends StoreSliceOptions<T> {
  /** How the store of a session is found; default `attachedConversation` (never makes one). */
  lookup?: (session: PiSession) => ConversationStore | undefined;
}

export class ConversationSliceController<T> extends StoreSliceController<
  ConversationSnapshot,
  T,
  ConversationStoreHost
> {
  constructor(
    host: ConversationStoreHost,
    select: (snapshot: ConversationSnapshot) => T,
    options: ConversationSliceOptions<T> = {},
  ) {
    const lookup = options.lookup ?? attachedConversation;
    super(
      host,
      select,
      {
        resolve: (owner, session) => owner.store ?? (session ? lookup(session) : undefined),
        // A store made for the session later (a transcript added to the page) is picked up when it is made.
        watch: (resync) =>
          onConversationAttached((session) => {
            if (session === this.session) resync();
          }),
      },
      options,
    );
  }

  /** The store in use: the host's `store`, else the store `lookup` gives for the session in use; undefined without either. */
  get store(): ConversationStore | undefined {
    return this.resolve() as ConversationStore | undefined;
  }
}
