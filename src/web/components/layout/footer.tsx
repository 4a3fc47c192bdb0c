import { Link } from 'react-router';
import { paths } from '../../paths.ts';
import { Logo } from './logo.tsx';

// Spec §2 Footer. The spec's social links were placeholders; we show none until real accounts exist
// (docs/decisions/002-no-placeholder-social-links.md).

const columns = [
  {
    title: 'CampusLoop',
    links: [
      { to: paths.about, label: 'How it Works' },
      { to: paths.stories, label: 'Stories' },
      { to: paths.partners, label: 'Partners' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: paths.help, label: 'Help Center' },
      { to: paths.safety, label: 'Safety' },
      { to: paths.contact, label: 'Contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: paths.privacy, label: 'Privacy' },
      { to: paths.terms, label: 'Terms' },
    ],
  },
];

export function Footer() {
  return (
    <footer className="border-t border-line bg-white pb-24 md:pb-0">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Logo />
          <p className="mt-3 font-semibold text-brand-800">Share. Save. Sustain.</p>
          <p className="mt-1 text-sm text-muted">Borrow what you need, lend what you don't.</p>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-bold uppercase tracking-wide text-ink">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-stone-700 hover:text-brand-700 hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-t border-line px-4 py-4 text-center text-sm text-muted">
        © {new Date().getFullYear()} CampusLoop. Made by students, for students.
      </p>
    </footer>
  );
}
