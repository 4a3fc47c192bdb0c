import { Trans, useLingui } from '@lingui/react/macro';
import { MessageSquare, Package, ShoppingBag, UserX } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useSession } from '../features/auth/api.ts';
import { ItemGrid } from '../features/items/components/item-card.tsx';
import { ReviewsList } from '../features/items/components/reviews-list.tsx';
import { ReportDialog } from '../features/reports/components/report-dialog.tsx';
import { useProfile } from '../features/users/api.ts';
import { BorrowedList } from '../features/users/components/borrowed-list.tsx';
import { ProfileHeader, ProfileStats } from '../features/users/components/profile-header.tsx';
import { ApiError, errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

// Spec §2 Profile. /profile alone is the signed-in person's own profile (guarded); /profile/{id} anyone's.

export default function ProfileRoute() {
  const { id } = useParams();
  if (id) return <Profile userId={id} />;
  return (
    <AuthGuard>
      <OwnProfile />
    </AuthGuard>
  );
}

function OwnProfile() {
  const { user } = useSession();
  return user ? <Profile userId={user.id} /> : null;
}

const tabClasses =
  'min-h-11 flex-1 rounded-lg px-3 text-sm font-semibold text-stone-700 sm:flex-none sm:px-4 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm';

function Profile({ userId }: { userId: string }) {
  const { t } = useLingui();
  const { user: viewer } = useSession();
  const { data: profile, isPending, error, refetch, isFetching } = useProfile(userId);
  useDocumentTitle(profile?.user.fullName ?? (isPending ? t`Profile` : t`User not found`));

  if (isPending) return <ProfileSkeleton />;
  if (!profile) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Card className="flex flex-col items-center p-8 text-center">
          <span className="flex h-14 w-14 items-center justify-center rounded-full bg-stone-100 text-stone-600">
            <UserX className="h-7 w-7" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-2xl font-bold text-ink">
            {missing ? <Trans>User not found</Trans> : <Trans>Failed to fetch user</Trans>}
          </h1>
          <p className="mt-2 text-muted">
            {missing
              ? t`The user profile you're looking for doesn't exist.`
              : errorMessage(error, t`Something went wrong. Please try again.`)}
          </p>
          <div className="mt-6">
            {missing ? (
              <Button asChild>
                <Link to={paths.browse}>
                  <Trans>Browse Items</Trans>
                </Link>
              </Button>
            ) : (
              <Button onClick={() => void refetch()} disabled={isFetching}>
                <Trans>Try again</Trans>
              </Button>
            )}
          </div>
        </Card>
      </div>
    );
  }

  const own = viewer?.id === profile.user.id;
  const firstName = profile.user.fullName.trim().split(/\s+/)[0] || profile.user.username;
  const itemsLabel = own ? t`My Items` : t`Items`;

  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <ProfileHeader profile={profile} own={own} />
      {/* Spec §2/§6: Report User, for signed-in viewers of other people's profiles. */}
      {viewer && !own && (
        <div className="-mt-3 flex justify-end">
          <ReportDialog target={{ kind: 'user', userId: profile.user.id, name: profile.user.fullName }} />
        </div>
      )}
      <ProfileStats stats={profile.stats} />

      <Tabs.Root defaultValue="items">
        <Tabs.List
          aria-label={t`Profile sections`}
          className="flex w-full gap-1 rounded-xl bg-stone-100 p-1 sm:w-fit"
        >
          <Tabs.Trigger value="items" className={tabClasses}>
            {itemsLabel}
          </Tabs.Trigger>
          {own && (
            <Tabs.Trigger value="borrowed" className={tabClasses}>
              <Trans>Borrowed</Trans>
            </Tabs.Trigger>
          )}
          <Tabs.Trigger value="reviews" className={tabClasses}>
            <Trans>Reviews</Trans>
          </Tabs.Trigger>
        </Tabs.List>

        <Tabs.Content value="items" className="mt-4">
          <h2 className="sr-only">{itemsLabel}</h2>
          {profile.items.length > 0 ? (
            <ItemGrid items={profile.items} />
          ) : own ? (
            <Empty
              icon={<Package />}
              text={t`You haven't listed anything yet.`}
              action={
                <Button asChild>
                  <Link to={paths.listItem}>
                    <Trans>List an Item</Trans>
                  </Link>
                </Button>
              }
            />
          ) : (
            <Empty icon={<Package />} text={t`${firstName} hasn't listed anything yet.`} />
          )}
        </Tabs.Content>

        {own && (
          <Tabs.Content value="borrowed" className="mt-4">
            <h2 className="sr-only">
              <Trans>Borrowed</Trans>
            </h2>
            {profile.borrowed && profile.borrowed.length > 0 ? (
              <BorrowedList borrowed={profile.borrowed} />
            ) : (
              <Empty
                icon={<ShoppingBag />}
                text={t`You haven't borrowed anything yet.`}
                action={
                  <Button asChild>
                    <Link to={paths.browse}>
                      <Trans>Browse Items</Trans>
                    </Link>
                  </Button>
                }
              />
            )}
          </Tabs.Content>
        )}

        <Tabs.Content value="reviews" className="mt-4">
          <h2 className="sr-only">
            <Trans>Reviews</Trans>
          </h2>
          {profile.reviews.length > 0 ? (
            <ReviewsList reviews={profile.reviews} showContext />
          ) : (
            <Empty
              icon={<MessageSquare />}
              text={
                own
                  ? t`No reviews yet. Reviews appear after you lend or borrow, once both of you have written one or 14 days have passed.`
                  : t`${firstName} has no reviews yet.`
              }
            />
          )}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function Empty({ icon, text, action }: { icon: ReactNode; text: string; action?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 [&_svg]:h-6 [&_svg]:w-6">
        {icon}
      </span>
      <p className="mt-3 max-w-sm text-stone-700">{text}</p>
      {action && <div className="mt-5">{action}</div>}
    </Card>
  );
}

function ProfileSkeleton() {
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-8" aria-busy="true">
      <span className="sr-only" role="status">
        <Trans>Loading profile…</Trans>
      </span>
      <Card className="flex flex-col items-center gap-5 p-5 sm:flex-row sm:p-8">
        <Skeleton className="h-20 w-20 rounded-full" />
        <div className="w-full flex-1 space-y-3">
          <Skeleton className="mx-auto h-8 w-48 sm:mx-0" />
          <Skeleton className="mx-auto h-4 w-32 sm:mx-0" />
          <Skeleton className="mx-auto h-4 w-64 sm:mx-0" />
        </div>
      </Card>
      <div className="grid grid-cols-3 gap-2 sm:gap-4">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-24 rounded-2xl" />
        ))}
      </div>
      <Skeleton className="h-12 w-72 max-w-full rounded-xl" />
      <ItemGrid loading skeletons={4} />
    </div>
  );
}
