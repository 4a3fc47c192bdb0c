import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The frame of an information page: a title band and a readable column. */
export function StaticPage({
  title,
  intro,
  eyebrow,
  children,
}: {
  title: string;
  intro?: ReactNode;
  eyebrow?: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div>
      <section className="border-b border-line bg-gradient-to-b from-brand-50 to-surface">
        <div className="mx-auto max-w-4xl px-4 py-10 sm:py-14">
          {eyebrow && (
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{eyebrow}</p>
          )}
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
          {intro && <div className="mt-3 max-w-2xl text-lg text-muted">{intro}</div>}
        </div>
      </section>
      <div className="mx-auto max-w-4xl px-4 py-10">{children}</div>
    </div>
  );
}

/** Long-form text (legal pages): headings, paragraphs and lists with comfortable spacing. */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-4 leading-relaxed text-stone-800 [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-ink [&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-ink [&_li]:ms-5 [&_li]:list-disc [&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline">
      {children}
    </div>
  );
}
