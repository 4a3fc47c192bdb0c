import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';

// What the parts of a report's page share: a titled section and the toast of an action that failed.

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-stone-600">{title}</h3>
      {children}
    </section>
  );
}

export function useFailureToast() {
  const { t } = useLingui();
  return (error: unknown) =>
    toast({
      variant: 'destructive',
      title: t`Action failed`,
      description: errorMessage(error, t`Please try again.`),
    });
}
