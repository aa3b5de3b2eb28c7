/**
 * The clipboard for a copy button's test: the page's clipboard is the edge of what the elements control (and a
 * headless engine may refuse it), so a test replaces writeText and sees what was written.
 */
/** Replaces the clipboard's writeText for one test: what was written, and whether it succeeds. */
export function fakeClipboard(succeed = true): { written: string[]; restore: () => void } {
  const written: string[] = [];
  const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
  Object.defineProperty(navigator, "clipboard", {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        if (!succeed) throw new DOMException("denied", "NotAllowedError");
        written.push(text);
      },
    },
  });
  return {
    written,
    restore: () => {
      if (original) Object.defineProperty(navigator, "clipboard", original);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    },
  };
}
