/**
 * Which pending dialog a UI shows, decided once in the core so every host of the same session shows the same one:
 * `UiState` keeps the choice in its snapshot (`UiSnapshot.shownDialogId`), and `pi-extension-ui`, a React, Vue or
 * Svelte host built on the store alone, or anything else that subscribes to it read it from there.
 *
 * The rule:
 * - The dialog shown stays shown until it leaves (answered, expired, closed by the agent or the session) or the user
 *   picks another (`PiSession.showDialog`): a dialog that arrives never takes the place of the one being answered.
 * - When none is shown (the first dialog, or the shown one left), the next is the waiting dialog with the earliest
 *   deadline, so a timed question never expires behind one that waits forever; else the oldest.
 * - "Shown" means "named by a snapshot": the choice is made when a snapshot is built, so dialogs that arrive in one
 *   burst (pi's `Promise.all` of two dialogs) are chosen among together, before anyone could have seen the first.
 */
import type { PendingDialog, UiSnapshot } from "./ui-snapshot.js";

/** The rule's second half: the dialog with the earliest deadline, else the oldest (the first in queue order). */
export function nextDialog(dialogs: readonly PendingDialog[]): PendingDialog | undefined {
  let soonest: PendingDialog | undefined;
  for (const dialog of dialogs) {
    if (dialog.deadline !== undefined && (soonest === undefined || dialog.deadline < (soonest.deadline as number))) {
      soonest = dialog;
    }
  }
  return soonest ?? dialogs[0];
}

/**
 * The dialog to show, from a snapshot: the pending dialog named by `shownDialogId`. A selector for
 * `useSyncExternalStore(session.ui.subscribe, () => shownDialog(session.ui.getSnapshot()))`: it returns the same
 * object until the shown dialog changes.
 */
export function shownDialog(snapshot: UiSnapshot): PendingDialog | undefined {
  const id = snapshot.shownDialogId;
  return id === undefined ? undefined : snapshot.dialogs.find((dialog) => dialog.id === id);
}
