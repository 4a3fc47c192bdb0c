import { useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { Toast as RadixToast } from 'radix-ui';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import { dismiss, TOAST_DURATION, useToasts } from '../../lib/toast.ts';
import { boxesToAvoid, chooseSpot, edgeGaps, type ToastSpot } from './toast-placement.ts';

/** The toast area: swipe right to dismiss, F8 jumps to it (Radix's default hotkey; spec §9). */
export function Toaster() {
  const { t } = useLingui();
  const toasts = useToasts();
  const viewport = useRef<HTMLOListElement>(null);
  const spot = useAvoidingPlacement(
    viewport,
    toasts.some((toast) => toast.open),
  );
  const placement = spot.placement;
  return (
    <RadixToast.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION}>
      {toasts.map((toast) => (
        <RadixToast.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) dismiss(toast.id);
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pe-10 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0 transition',
            toast.variant === 'destructive'
              ? 'border-red-800 bg-danger text-white'
              : 'border-line bg-white text-ink',
          )}
        >
          <div className="grid min-w-0 flex-1 gap-1">
            {toast.title && (
              <RadixToast.Title className="text-sm font-semibold">{toast.title}</RadixToast.Title>
            )}
            {toast.description && (
              <RadixToast.Description className="text-sm opacity-90">
                {toast.description}
              </RadixToast.Description>
            )}
          </div>
          {toast.action && (
            <RadixToast.Action
              altText={toast.action.altText}
              onClick={toast.action.onClick}
              className={cn(
                'inline-flex min-h-9 shrink-0 items-center self-center rounded-lg border px-3 text-sm font-semibold',
                toast.variant === 'destructive'
                  ? 'border-white/60 hover:bg-white/10'
                  : 'border-stone-300 text-brand-800 hover:bg-stone-50',
              )}
            >
              {toast.action.label}
            </RadixToast.Action>
          )}
          <RadixToast.Close
            aria-label={t`Close notification`}
            className="absolute end-2 top-2 rounded-md p-1 opacity-80 hover:opacity-100"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport
        ref={viewport}
        data-placement={placement}
        className={cn(
          'fixed start-0 end-0 z-[100] mx-auto flex max-h-screen w-full flex-col gap-2 p-4 md:start-auto md:end-4 md:max-w-[420px]',
          placement === 'bottom' ? 'bottom-20 md:bottom-4' : placement === 'top' ? 'top-0 md:top-16' : '',
        )}
        // Between: its list's top at the gap's top (the area's own padding above it).
        style={spot.placement === 'between' ? { top: spot.top - 16 } : undefined}
      />
    </RadixToast.Provider>
  );
}

/**
 * While a toast shows, checks every frame whether it would cover a control marked `data-toast-avoid`
 * (the Pay button, the message box, the sticky Reserve bar) and moves the toast area to the other edge
 * if so; the frame's check runs before that frame is painted.
 */
function useAvoidingPlacement(viewport: RefObject<HTMLOListElement | null>, active: boolean): ToastSpot {
  const [placement, setPlacement] = useState<ToastSpot>({ placement: 'bottom' });
  const current = useRef(placement);
  current.current = placement;
  useEffect(() => {
    if (!active) return;
    let frame = 0;
    const check = () => {
      const list = viewport.current;
      if (list) {
        const items = [...list.querySelectorAll(':scope > li')].map((li) => li.getBoundingClientRect());
        if (items.length > 0) {
          const box = {
            top: Math.min(...items.map((r) => r.top)),
            bottom: Math.max(...items.map((r) => r.bottom)),
            left: Math.min(...items.map((r) => r.left)),
            right: Math.max(...items.map((r) => r.right)),
          };
          const wide = window.matchMedia('(min-width: 768px)').matches;
          const next = chooseSpot(box, boxesToAvoid(document), window.innerHeight, edgeGaps(wide));
          const now = current.current;
          const same =
            next.placement === now.placement &&
            (next.placement !== 'between' || (now.placement === 'between' && next.top === now.top));
          if (!same) {
            current.current = next;
            setPlacement(next);
          }
        }
      }
      frame = requestAnimationFrame(check);
    };
    check();
    return () => cancelAnimationFrame(frame);
  }, [viewport, active]);
  return placement;
}
