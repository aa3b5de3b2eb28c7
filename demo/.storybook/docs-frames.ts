/**
 * A docs page's framed stories (a dialog's, each in an iframe of its own: see metaOf in demo/storybook/adapter.ts)
 * follow the toolbar. Storybook's docs page renders such a story as a second preview in an iframe, which gets the
 * toolbar's choices only as they were when it loaded (the manager's updates reach the docs page's preview, not the
 * frames in it). So the docs page passes its globals to its story frames (when one asks, once its preview is ready,
 * and whenever the toolbar changes them), and a story frame that has others loads again with the page's.
 */
import { SET_GLOBALS, UPDATE_GLOBALS } from "storybook/internal/core-events";
import { addons } from "storybook/preview-api";

type Globals = Record<string, unknown>;

/** The page's globals, to a story frame; a story frame's request for them. */
const GLOBALS = "pi-elements:docs-globals";
const REQUEST = "pi-elements:docs-globals-request";

/** The frames Storybook's docs page renders its framed stories in (its Story block's `iframe--<story id>`). */
const STORY_FRAME = 'iframe[id^="iframe--"]';

/** The toolbar's own choices (preview.ts's globalTypes), the ones passed on; Storybook's addons keep theirs. */
const PASSED = ["theme", "locale", "direction"] as const;

const passed = (globals: Globals): Globals =>
  Object.fromEntries(PASSED.filter((key) => key in globals).map((key) => [key, globals[key]]));
const differs = (from: Globals, to: Globals) => PASSED.some((key) => key in to && from[key] !== to[key]);

/** Whether this preview is a story frame of a docs page. */
export function inDocsStoryFrame(): boolean {
  // Null in a frame of another origin, whose page is not a docs page of this workshop.
  return window.frameElement?.matches(STORY_FRAME) ?? false;
}

export function followDocsGlobals(): void {
  const channel = addons.getChannel();
  let globals: Globals = {};
  if (inDocsStoryFrame()) {
    // A story frame of a docs page. Once its preview has its globals, it asks the page for the page's; when they
    // differ, it loads itself again with them in its address (Storybook's `globals` parameter). Not UPDATE_GLOBALS
    // on its channel: that reaches the docs page's preview too, which renders the page again, and its frames with it.
    channel.on(SET_GLOBALS, (event: { globals: Globals }) => {
      globals = event.globals;
      window.parent.postMessage({ type: REQUEST }, location.origin);
    });
    window.addEventListener("message", (event: MessageEvent<{ type?: string; globals?: Globals }>) => {
      if (event.source !== window.parent || event.origin !== location.origin || event.data?.type !== GLOBALS) return;
      const next = { ...passed(globals), ...passed(event.data.globals ?? {}) };
      if (!differs(globals, next)) return;
      const address = new URL(location.href);
      address.searchParams.set(
        "globals",
        Object.entries(next)
          .map(([key, value]) => `${key}:${String(value)}`)
          .join(";"),
      );
      location.replace(address);
    });
    return;
  }

  // A docs page (or a story's canvas, with no story frames in it). The page's channel also receives its story
  // frames' events, whose globals may be older: the page's are its preview's first SET_GLOBALS (before any story
  // frame exists) and, after it, the toolbar's UPDATE_GLOBALS (from the manager; a story frame sends none).
  const frames = () => [...document.querySelectorAll<HTMLIFrameElement>(STORY_FRAME)];
  const post = (target: Window | null | undefined) =>
    target?.postMessage({ type: GLOBALS, globals: passed(globals) }, location.origin);
  channel.once(SET_GLOBALS, (event: { globals: Globals }) => {
    globals = event.globals;
  });
  channel.on(UPDATE_GLOBALS, (event: { globals: Globals }) => {
    if (!differs(globals, event.globals)) return;
    globals = { ...globals, ...passed(event.globals) };
    for (const target of frames()) post(target.contentWindow);
  });
  window.addEventListener("message", (event: MessageEvent<{ type?: string }>) => {
    if (event.origin !== location.origin || event.data?.type !== REQUEST) return;
    const target = frames().find((f) => f.contentWindow === event.source);
    if (target) post(target.contentWindow);
  });
}
