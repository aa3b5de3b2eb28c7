/**
 * Whether a click on a modal `<dialog>` landed on its backdrop: the click's target is the dialog itself (not
 * something inside it) and its point lies outside the dialog's box. The platform gives no backdrop event.
 */
export function isBackdropClick(event: MouseEvent): boolean {
  const dialog = event.currentTarget as HTMLDialogElement;
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  const inside =
    event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
  return !inside;
}
