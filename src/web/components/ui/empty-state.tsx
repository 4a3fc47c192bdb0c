import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from './button.tsx';
import { Card } from './card.tsx';

/** A list with nothing in it yet: what it will hold, and the one thing to do about it. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: LucideIcon;
  title: ReactNode;
  children: ReactNode;
  action: { to: string; label: ReactNode };
}) {
  return (
    <Card className="flex flex-col items-center px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Icon className="h-6 w-6" aria-hidden="true" />
      </span>
      <h2 className="mt-3 text-lg font-semibold text-ink">{title}</h2>
      <p className="mt-1 max-w-sm text-muted">{children}</p>
      <Button asChild className="mt-5">
        <Link to={action.to}>{action.label}</Link>
      </Button>
    </Card>
  );
}
