/**
 * A promise a test settles when it chooses: `await signal.done` waits until `signal.fire()` (a
 * transaction held open until the test lets it end, a step that says it has started).
 */
export function signal(): { done: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const done = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { done, fire };
}
