/**
 * The prompts the demo suggests, and that its scripted model knows how to answer (script.ts picks a turn by the words
 * in them): shared by the live page's suggestion buttons and the model, so the two cannot drift apart. A real model
 * (`scripts/demo.sh --real`) gets the same suggestions; they make sense to it too.
 */
export interface SuggestedPrompt {
  /** The button's text. */
  readonly label: string;
  /** What is sent to pi. */
  readonly message: string;
}

export const SUGGESTED_PROMPTS: readonly SuggestedPrompt[] = [
  { label: "Make greet() friendlier", message: "Look around this project, then make greet() friendlier." },
  { label: "Add a test", message: "Add a test for greet() and run it." },
  { label: "Clean up the build folder", message: "Clean up the build folder." },
  { label: "What can you do?", message: "What can you do in this demo?" },
];
