import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card.tsx';

/** One block of the settings page, its heading the page's landmark for it. */
export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card className="p-5 sm:p-6" aria-labelledby={`${id}-title`} role="region">
      <h2 id={`${id}-title`} className="text-lg font-bold text-ink">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-muted">{description}</p>}
      <div className="mt-5">{children}</div>
    </Card>
  );
}

/** A form's failure that belongs to no one field. */
export function FormFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-danger">
      {message}
    </p>
  );
}
