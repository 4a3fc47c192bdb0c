// Whether the page arrived rendered by the server and was hydrated (main.tsx), rather than rendered
// here: then some browser events (an image that failed to load) may have happened before any handler.

let serverRendered = false;

export function markServerRendered(): void {
  serverRendered = true;
}

export function isServerRendered(): boolean {
  return serverRendered;
}
