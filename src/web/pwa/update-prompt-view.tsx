import { Trans, useLingui } from '@lingui/react/macro';
import { RefreshCw, X } from 'lucide-react';

/** The prompt itself (update-prompt.tsx decides when): a toast-like card with Reload and Later. */
export function UpdatePromptView({ onReload, onDismiss }: { onReload: () => void; onDismiss: () => void }) {
  const { t } = useLingui();
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-x-0 bottom-20 z-[110] mx-auto flex w-[calc(100%-2rem)] max-w-[420px] items-start gap-3 rounded-xl border border-line bg-white p-4 text-ink shadow-lg md:bottom-4 md:start-auto md:end-4 md:mx-0"
    >
      <RefreshCw className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" aria-hidden="true" />
      <div className="grid flex-1 gap-2">
        <p className="text-sm font-semibold">
          <Trans>A new version of CampusLoop is available</Trans>
        </p>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={onReload}
            className="rounded-lg bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800"
          >
            <Trans>Reload</Trans>
          </button>
          <button
            type="button"
            onClick={onDismiss}
            className="rounded-lg border border-line px-3 py-1.5 text-sm font-semibold hover:bg-surface"
          >
            <Trans>Later</Trans>
          </button>
        </div>
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={t`Close the update message`}
        className="rounded-md p-1 opacity-80 hover:opacity-100"
      >
        <X className="h-4 w-4" aria-hidden="true" />
      </button>
    </div>
  );
}
