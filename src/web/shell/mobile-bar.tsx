import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { LogIn } from 'lucide-react';
import { NavLink } from 'react-router';
import { accountIcon, mobileNav, type NavEntry, navFor } from '../components/layout/navigation.ts';
import { useSession } from '../features/auth/api.ts';
import { cn } from '../lib/cn.ts';
import { paths } from '../paths.ts';

/**
 * Spec §2: the phone's bottom bar (and "Asked for" for the signed in). Hidden from medium screens up,
 * where the header has room. Six slots of 62 px at 375 px: 11 px labels keep "Asked for" and "Se busca"
 * on one line even in a wide fallback font (DejaVu Sans); a longer one ("Iniciar sesión") wraps in its
 * slot, within the bar's height.
 */
export function MobileBar() {
  const { user } = useSession();
  const { t, i18n } = useLingui();
  const account: NavEntry = user
    ? { to: paths.profile(), label: msg`Profile`, icon: accountIcon }
    : { to: paths.login, label: msg`Sign In`, icon: LogIn };
  return (
    <nav
      aria-label={t`Mobile`}
      className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-white pb-[env(safe-area-inset-bottom)] md:hidden"
    >
      <ul className="grid auto-cols-fr grid-flow-col">
        {[...navFor(mobileNav, Boolean(user)), account].map((entry) => (
          <li key={entry.to}>
            <NavLink
              to={entry.to}
              end={entry.to === paths.home}
              className={({ isActive }) =>
                cn(
                  'flex min-h-14 flex-col items-center justify-center gap-0.5 text-center text-[11px] font-semibold leading-tight',
                  isActive ? 'text-brand-700' : 'text-stone-600',
                )
              }
            >
              {entry.highlight ? (
                <span className="-mt-4 flex h-11 w-11 items-center justify-center rounded-full bg-brand-700 text-white shadow-lg ring-4 ring-white">
                  <entry.icon className="h-6 w-6" aria-hidden="true" />
                </span>
              ) : (
                <entry.icon className="h-5 w-5" aria-hidden="true" />
              )}
              {i18n._(entry.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
