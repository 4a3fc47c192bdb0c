import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { Logo } from '../components/layout/logo.tsx';
import { paths } from '../paths.ts';
import { LanguageSwitch } from './language-switch.tsx';

// Spec §2 Footer. The spec's social links were placeholders; we show none until real accounts exist
// (docs/decisions/002-no-placeholder-social-links.md). Below them, the language switch.

const columns: { title: MessageDescriptor; links: { to: string; label: MessageDescriptor }[] }[] = [
  {
    title: msg`CampusLoop`,
    links: [
      { to: paths.about, label: msg`How it Works` },
      { to: paths.stories, label: msg`Stories` },
      { to: paths.partners, label: msg`Partners` },
    ],
  },
  {
    title: msg`Support`,
    links: [
      { to: paths.help, label: msg`Help Center` },
      { to: paths.safety, label: msg`Safety` },
      { to: paths.contact, label: msg`Contact` },
    ],
  },
  {
    title: msg`Legal`,
    links: [
      { to: paths.privacy, label: msg`Privacy` },
      { to: paths.terms, label: msg`Terms` },
    ],
  },
];

export function Footer() {
  const { i18n } = useLingui();
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-line bg-white pb-24 md:pb-0">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 font-semibold text-brand-800">
            <Trans>Share. Save. Sustain.</Trans>
          </p>
          <p className="mt-1 text-sm text-muted">
            <Trans>Borrow what you need, lend what you don't.</Trans>
          </p>
          <LanguageSwitch className="mt-4" />
        </div>
        {columns.map((column) => (
          <nav key={column.title.id} aria-label={i18n._(column.title)}>
            <h2 className="text-sm font-bold uppercase tracking-wide text-ink">{i18n._(column.title)}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-stone-700 hover:text-brand-700 hover:underline">
                    {i18n._(link.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t border-line px-4 py-4 text-center text-sm text-muted">
        <Trans>© {year} CampusLoop. Made by students, for students.</Trans>
      </p>
    </footer>
  );
}
