import { Tooltip as RadixTooltip } from 'radix-ui';
import { createContext, type ReactElement, type ReactNode, useContext } from 'react';

// Spec §9: tooltips open after 700 ms of hovering; moving to another within 300 ms opens it at once.
// Every icon-only button says what it does in one, since its icon alone may not (decision 026); its
// accessible name stays its label.

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

const InsideProvider = createContext(false);

/**
 * Around a group of icon buttons (the header's), so the skip delay carries from one to the next. Not
 * around the whole app: Radix Tooltip brings its positioning engine, kept out of the first load
 * (decision 026); a tooltip outside any group has a provider of its own.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
      <InsideProvider.Provider value={true}>{children}</InsideProvider.Provider>
    </RadixTooltip.Provider>
  );
}

/** `children` (one icon button, or a Radix trigger rendering one) with `label` as its tooltip. */
export function IconTooltip({ label, children }: { label: string; children: ReactElement }) {
  const tooltip = (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          sideOffset={6}
          className="z-[110] max-w-xs rounded-md bg-ink px-2 py-1 text-xs font-medium text-white shadow-lg"
        >
          {label}
          <RadixTooltip.Arrow className="fill-ink" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
  // Rendered on its own (a component test, say): its own provider, with the same delays.
  return useContext(InsideProvider) ? tooltip : <TooltipProvider>{tooltip}</TooltipProvider>;
}
