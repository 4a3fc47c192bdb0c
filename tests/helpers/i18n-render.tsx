import { I18nProvider } from '@lingui/react';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { i18n } from '../../src/web/lib/i18n.ts';

// Component tests render parts of the app as it runs, inside its language provider: every
// render of @testing-library/react gets it, in English unless a test activates another language.
vi.mock('@testing-library/react', async (importOriginal) => {
  const original = await importOriginal<typeof import('@testing-library/react')>();
  const withI18n = ({ children }: { children: ReactNode }) => (
    <I18nProvider i18n={i18n}>{children}</I18nProvider>
  );
  type Options = Parameters<typeof original.render>[1];
  const wrap = (options?: Options): Options => {
    const Inner = options?.wrapper;
    return {
      ...options,
      wrapper: Inner
        ? ({ children }: { children: ReactNode }) => withI18n({ children: <Inner>{children}</Inner> })
        : withI18n,
    };
  };
  return {
    ...original,
    render: ((ui: Parameters<typeof original.render>[0], options?: Options) =>
      original.render(ui, wrap(options))) as typeof original.render,
    renderHook: ((callback: never, options?: Record<string, unknown>) =>
      original.renderHook(callback, wrap(options as Options) as never)) as typeof original.renderHook,
  };
});
