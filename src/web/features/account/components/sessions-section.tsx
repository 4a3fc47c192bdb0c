import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatDistanceToNow } from 'date-fns';
import { es } from 'date-fns/locale/es';
import { Laptop, LogOut, Smartphone } from 'lucide-react';
import { intlLocale } from '#shared/format.ts';
import type { AccountSession } from '#shared/schemas/account.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { useAccountSessions, useEndSession, useSignOutOtherSessions } from '../api.ts';
import { FormFailure, SettingsSection } from './settings-section.tsx';

// Where the account is signed in, and signing out of the other places (their live chats close too).

const isPhone = (device: string) => /Android|iPhone|iPad/.test(device);

export function SessionsSection() {
  const { t } = useLingui();
  const sessions = useAccountSessions();
  const end = useEndSession();
  const others = useSignOutOtherSessions();
  const list = sessions.data ?? [];
  const otherCount = list.filter((s) => !s.current).length;

  return (
    <SettingsSection
      id="sessions"
      title={t`Active Sessions`}
      description={t`The devices signed in to your account. Sign out of any you do not recognise, then change your password.`}
    >
      {sessions.isPending ? (
        <div role="status" className="space-y-3">
          <span className="sr-only">
            <Trans>Loading your sessions...</Trans>
          </span>
          <Skeleton className="h-16 w-full rounded-xl" />
          <Skeleton className="h-16 w-full rounded-xl" />
        </div>
      ) : sessions.isError ? (
        <div role="alert" className="rounded-lg bg-red-50 p-4 text-sm">
          <p className="font-medium text-danger">
            <Trans>Your sessions could not be loaded.</Trans>
          </p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => void sessions.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : (
        <>
          <ul className="divide-y divide-line" aria-label={t`Signed-in devices`}>
            {list.map((session) => (
              <SessionRow
                key={session.id}
                session={session}
                ending={end.isPending && end.variables === session.id}
                onEnd={() => {
                  const device = session.device;
                  end.mutate(session.id, {
                    onSuccess: () =>
                      toast({ title: t`Signed out`, description: t`${device} was signed out.` }),
                  });
                }}
              />
            ))}
          </ul>
          <div className="mt-4 space-y-3">
            <FormFailure
              message={
                end.isError
                  ? errorMessage(end.error, t`That session could not be ended. Please try again.`)
                  : others.isError
                    ? errorMessage(others.error, t`The other sessions could not be ended. Please try again.`)
                    : null
              }
            />
            {otherCount === 0 ? (
              <p className="text-sm text-muted">
                <Trans>You are signed in on this device only.</Trans>
              </p>
            ) : (
              <Button
                type="button"
                variant="outline"
                disabled={others.isPending}
                onClick={() =>
                  others.mutate(undefined, {
                    onSuccess: ({ ended }) =>
                      toast({
                        title: t`Signed out of other sessions`,
                        description: plural(ended, {
                          one: '# other session was signed out.',
                          other: '# other sessions were signed out.',
                        }),
                      }),
                  })
                }
              >
                <LogOut className="h-4 w-4" aria-hidden="true" />
                {others.isPending ? t`Signing out...` : t`Sign out of other sessions`}
              </Button>
            )}
          </div>
        </>
      )}
    </SettingsSection>
  );
}

function SessionRow({
  session,
  ending,
  onEnd,
}: {
  session: AccountSession;
  ending: boolean;
  onEnd: () => void;
}) {
  const { t, i18n } = useLingui();
  const Icon = isPhone(session.device) ? Smartphone : Laptop;
  const device = session.device;
  const ago = formatDistanceToNow(new Date(session.lastUsedAt), {
    addSuffix: true,
    locale: i18n.locale === 'es' ? es : undefined,
  });
  const signedIn = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium' }).format(
    new Date(session.createdAt),
  );
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 first:pt-0 last:pb-0">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-stone-100 text-stone-700">
        <Icon className="h-5 w-5" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold text-ink">
          {session.device}
          {session.current && (
            <span className="ms-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
              <Trans>This device</Trans>
            </span>
          )}
        </p>
        <p className="text-sm text-muted">
          {session.current ? (
            <Trans>Active now · Signed in {signedIn}</Trans>
          ) : (
            <Trans>
              Last active {ago} · Signed in {signedIn}
            </Trans>
          )}
        </p>
      </div>
      {!session.current && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={ending}
          onClick={onEnd}
          aria-label={t`Sign out ${device}`}
        >
          {ending ? t`Signing out...` : t`Sign out`}
        </Button>
      )}
    </li>
  );
}
