import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/layout/logo.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { paths } from '../../../paths.ts';

/** The frame of the sign-in and sign-up pages. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  continueLabel,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
  continueLabel: string;
}) {
  return (
    <div className="bg-gradient-to-b from-brand-50 to-surface px-4 py-10 sm:py-16">
      <Card className="mx-auto w-full max-w-md p-6 sm:p-8">
        <div className="flex flex-col items-center text-center">
          <Logo withText={false} />
          <h1 className="mt-3 text-2xl font-bold text-ink">{title}</h1>
          <p className="mt-1 text-muted">{subtitle}</p>
        </div>
        <div className="mt-6">{children}</div>
        <div className="mt-6 text-center text-sm text-stone-700">{footer}</div>
        <p className="mt-3 text-center text-sm">
          <Link
            to={paths.home}
            className="font-medium text-muted underline-offset-4 hover:text-brand-700 hover:underline"
          >
            {continueLabel}
          </Link>
        </p>
      </Card>
    </div>
  );
}
