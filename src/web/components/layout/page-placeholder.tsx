import { Trans } from '@lingui/react/macro';
import { Skeleton } from '../ui/skeleton.tsx';

/** Spec §2 Auth guard: the pulsing placeholder while a page (or the sign-in check) loads. */
export function PagePlaceholder() {
  return (
    <div className="mx-auto max-w-4xl space-y-4 px-4 py-10" aria-busy="true">
      <span className="sr-only" role="status">
        <Trans>Loading…</Trans>
      </span>
      <Skeleton className="h-10 w-2/3" />
      <Skeleton className="h-5 w-full" />
      <Skeleton className="h-5 w-5/6" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}
