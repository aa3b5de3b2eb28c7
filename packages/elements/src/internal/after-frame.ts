/**
 * Runs `run` in a task after the next animation frame: the page paints, and answers input, before it. The way the
 * elements spread heavy work (formatting, colours, diff rows) over tasks. Returns a function that cancels it.
 */
export function afterNextFrame(run: () => void): () => void {
  let task: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined = requestAnimationFrame(() => {
    frame = undefined;
    task = setTimeout(() => {
      task = undefined;
      run();
    });
  });
  return () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(task);
    frame = undefined;
    task = undefined;
  };
}
