/**
 * A text given to an element's `key` property (`text`, `code`) as a model streams it: `updates` growing prefixes,
 * each rendered (`updateComplete`) and painted (an animation frame) before the next, then `streaming` off and the
 * last render.
 */
export async function streamInto<K extends string>(
  element: HTMLElement & { streaming: boolean; updateComplete: Promise<boolean> } & Record<K, string>,
  key: K,
  text: string,
  updates: number,
): Promise<void> {
  element.streaming = true;
  for (let i = 1; i <= updates; i++) {
    element[key] = text.slice(0, Math.round((text.length * i) / updates)) as (typeof element)[K];
    await element.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  element.streaming = false;
  await element.updateComplete;
}
