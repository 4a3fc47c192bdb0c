import { i18n as globalI18n, type I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useEffect } from 'react';

const HOME_TITLE = msg`CampusLoop · Share. Save. Sustain.`;

/**
 * The tab title of a page ('' for Home), in the language `i18n` speaks; the server writes the same one
 * into pages it pre-renders.
 */
export function documentTitle(title: string, i18n: I18n = globalI18n): string {
  return title ? `${title} · CampusLoop` : i18n._(HOME_TITLE);
}

/** Sets the tab title, so each page is announced and bookmarked by its name (again when the language changes). */
export function useDocumentTitle(title: string) {
  const { i18n } = useLingui();
  const text = documentTitle(title, i18n);
  useEffect(() => {
    document.title = text;
  }, [text]);
}
