import { useEffect } from 'react';

/** The tab title of a page ('' for Home); the server writes the same one into pages it pre-renders. */
export function documentTitle(title: string): string {
  return title ? `${title} · CampusLoop` : 'CampusLoop · Share. Save. Sustain.';
}

/** Sets the tab title, so each page is announced and bookmarked by its name. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
