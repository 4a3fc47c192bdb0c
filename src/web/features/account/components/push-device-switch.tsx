import { Trans, useLingui } from '@lingui/react/macro';
import { errorMessage } from '../../../lib/api.ts';
import { PushRefused, pushSupported, usePushStatus, useSetPushOnThisDevice } from '../push-device.ts';
import { FormFailure } from './settings-section.tsx';

// The one switch that lets this browser receive push; the kinds below choose what comes.

export function PushDeviceSwitch() {
  const { t } = useLingui();
  const status = usePushStatus();
  const set = useSetPushOnThisDevice();
  const supported = pushSupported();
  const available = status.data?.available ?? false;
  const on = set.isPending ? Boolean(set.variables?.on) : Boolean(status.data?.thisDevice);
  const note = !status.data
    ? null
    : !available
      ? t`Push notifications are off on this server (it has no VAPID keys), so only e-mail goes out.`
      : !supported
        ? t`This browser cannot receive push notifications.`
        : on
          ? t`This device shows your notifications, even when CampusLoop is closed.`
          : t`Turn on to see notifications on this device, even when CampusLoop is closed.`;
  return (
    <div className="rounded-xl border border-line bg-surface p-3">
      <div className="flex items-center justify-between gap-3">
        <span id="push-device-label" className="font-semibold text-ink">
          <Trans>Push notifications on this device</Trans>
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="push-device-label"
          aria-describedby="push-device-note"
          disabled={!status.data || !available || !supported || set.isPending}
          onClick={() => set.mutate({ on: !on, publicKey: status.data?.publicKey ?? null })}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:opacity-50 ${on ? 'bg-brand-700' : 'bg-stone-500'}`}
        >
          <span
            aria-hidden="true"
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`}
          />
        </button>
      </div>
      <p id="push-device-note" className="mt-1 text-sm text-muted">
        {note ?? t`Checking this device…`}
      </p>
      <FormFailure
        message={
          set.isError
            ? set.error instanceof PushRefused
              ? set.error.message
              : errorMessage(set.error, t`Push could not be turned on. Please try again.`)
            : null
        }
      />
    </div>
  );
}
