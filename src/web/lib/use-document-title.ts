import { useEffect } from 'react';

/** Sets the tab title, so each page is announced and bookmarked by its name. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = title ? `${title} · CampusLoop` : 'CampusLoop · Share. Save. Sustain.';
  }, [title]);
}
