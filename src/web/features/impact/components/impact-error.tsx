import { Trans } from '@lingui/react/macro';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';

/** Spec §8: 'Failed to fetch impact data', with a way to try again. */
export function ImpactError({
  onRetry,
  retrying,
  className,
  tone = 'light',
}: {
  onRetry: () => void;
  retrying?: boolean;
  className?: string;
  tone?: 'light' | 'dark';
}) {
  return (
    <div role="alert" className={cn('flex flex-wrap items-center gap-3', className)}>
      <AlertTriangle
        className={cn('h-5 w-5 shrink-0', tone === 'dark' ? 'text-amber-200' : 'text-danger')}
        aria-hidden="true"
      />
      <p className="font-semibold">
        <Trans>Failed to fetch impact data</Trans>
      </p>
      <Button
        size="sm"
        variant={tone === 'dark' ? 'inverseOutline' : 'outline'}
        onClick={onRetry}
        disabled={retrying}
      >
        <Trans>Try again</Trans>
      </Button>
    </div>
  );
}
