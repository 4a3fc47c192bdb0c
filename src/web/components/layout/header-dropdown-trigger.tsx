import { useLingui } from '@lingui/react/macro';
import type { LucideIcon } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { badgeCount } from '#shared/constants.ts';
import { IconTooltip } from '../ui/tooltip.tsx';

/** The header's icon button for a dropdown, with its unread badge ('9+' above nine, spec §2). */
export function HeaderDropdownTrigger({
  icon: Icon,
  label,
  unread,
}: {
  icon: LucideIcon;
  label: string;
  unread: number;
}) {
  const { t } = useLingui();
  return (
    <IconTooltip label={label}>
      <DropdownMenu.Trigger
        className="relative flex h-10 w-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100"
        aria-label={unread ? t`${label}, ${unread} unread` : label}
      >
        <Icon className="h-5 w-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="absolute -end-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-danger px-1 text-[11px] font-bold text-white"
          >
            {badgeCount(unread)}
          </span>
        )}
      </DropdownMenu.Trigger>
    </IconTooltip>
  );
}

/** The panel both header dropdowns open. */
export const headerDropdownContentClasses =
  'z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-line bg-white p-1.5 shadow-xl';
