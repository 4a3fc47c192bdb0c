import { SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';

/** A list with nothing to show: why, and what to do about it (the buttons). */
export function EmptyResults({
  title,
  text,
  children,
}: {
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <SearchX className="h-6 w-6" aria-hidden="true" />
      </span>
      <h3 className="mt-3 text-lg font-semibold text-ink">{title}</h3>
      <p className="mt-1 max-w-sm text-muted">{text}</p>
      <div className="mt-5 flex flex-wrap justify-center gap-3">{children}</div>
    </Card>
  );
}
