import { hydrate, type QueryClient } from '@tanstack/react-query';

// The query cache a server-rendered page was rendered from, handed to the browser in a JSON data block
// (entry-server.tsx writes it; CSP allows it, as it is never run).

export const QUERY_STATE_ID = 'cl-query-state';

/** Fills `queryClient` with the data the server rendered the page from; nothing when there is none. */
export function restoreQueryState(queryClient: QueryClient, doc: Document = document): void {
  const element = doc.getElementById(QUERY_STATE_ID);
  if (!element?.textContent) return;
  hydrate(queryClient, JSON.parse(element.textContent));
  element.remove();
}
