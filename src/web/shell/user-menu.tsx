import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  CalendarCheck,
  CreditCard,
  LogOut,
  Receipt,
  Settings,
  ShieldCheck,
  UserRound,
  Wallet,
} from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '#shared/schemas/auth.ts';
import { Avatar } from '../components/layout/avatar.tsx';
import { askedForNav } from '../components/layout/navigation.ts';
import { IconTooltip } from '../components/ui/tooltip.tsx';
import { useLogout } from '../features/auth/api.ts';
import { toast } from '../lib/toast.ts';
import { paths } from '../paths.ts';

// Spec §2 Header: the user menu: Profile, My Reservations, Billing History, Payment Methods,
// Settings, Logout; and Admin for moderators. "Asked for" (decision 066) follows My Reservations. Earnings (decision 056) sits by Billing History: lenders
// look for the money sent to them there.

const itemClasses =
  'flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium text-ink outline-none data-[highlighted]:bg-brand-50';

export function UserMenu({ user }: { user: SessionUser }) {
  const { t, i18n } = useLingui();
  const logout = useLogout();
  const navigate = useNavigate();
  const fullName = user.fullName;
  const entries: { to: string; label: MessageDescriptor; icon: typeof UserRound }[] = [
    { to: paths.profile(user.id), label: msg`Profile`, icon: UserRound },
    { to: paths.reservations, label: msg`My Reservations`, icon: CalendarCheck },
    askedForNav,
    { to: paths.billingHistory, label: msg`Billing History`, icon: Receipt },
    { to: paths.earnings, label: msg`Earnings`, icon: Wallet },
    { to: paths.paymentMethods, label: msg`Payment Methods`, icon: CreditCard },
    { to: paths.settings, label: msg`Settings`, icon: Settings },
    // Moderators only (ADMIN_EMAILS): the report queue.
    ...(user.isAdmin ? [{ to: paths.admin(), label: msg`Admin`, icon: ShieldCheck }] : []),
  ];

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => {
        toast({ title: t`Logged out`, description: t`You have been successfully logged out.` });
        navigate(paths.home);
      },
      onError: () =>
        toast({ variant: 'destructive', title: t`Logout failed`, description: t`Please try again.` }),
    });

  return (
    <DropdownMenu.Root modal={false}>
      <IconTooltip label={t`Account menu`}>
        <DropdownMenu.Trigger
          className="flex items-center gap-2 rounded-full p-0.5 hover:ring-2 hover:ring-brand-200"
          aria-label={t`Account menu for ${fullName}`}
        >
          <Avatar name={user.fullName} src={user.profileImage} size="sm" />
        </DropdownMenu.Trigger>
      </IconTooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-line bg-white p-1.5 shadow-xl"
        >
          <div className="px-3 py-2">
            <p className="truncate font-semibold text-ink">{user.fullName}</p>
            <p className="truncate text-sm text-muted">@{user.username}</p>
            <p className="text-sm text-muted">{user.campusName}</p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-line" />
          {entries.map((entry) => (
            <DropdownMenu.Item key={entry.to} asChild>
              <Link to={entry.to} className={itemClasses}>
                <entry.icon className="h-4 w-4" aria-hidden="true" />
                {i18n._(entry.label)}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Item
            onSelect={onLogout}
            disabled={logout.isPending}
            className={`cursor-pointer ${itemClasses}`}
          >
            <LogOut className="h-4 w-4" aria-hidden="true" />
            <Trans>Logout</Trans>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
