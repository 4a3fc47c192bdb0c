import { X } from 'lucide-react';
import { Toast as RadixToast } from 'radix-ui';
import { cn } from '../../lib/cn.ts';
import { dismiss, TOAST_DURATION, useToasts } from '../../lib/toast.ts';

/** The toast area: swipe right to dismiss, F8 jumps to it (Radix's default hotkey; spec §9). */
export function Toaster() {
  const toasts = useToasts();
  return (
    <RadixToast.Provider swipeDirection="right" swipeThreshold={50} duration={TOAST_DURATION}>
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0 transition',
            t.variant === 'destructive'
              ? 'border-red-800 bg-danger text-white'
              : 'border-line bg-white text-ink',
          )}
        >
          <div className="grid gap-1">
            {t.title && <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>}
            {t.description && (
              <RadixToast.Description className="text-sm opacity-90">{t.description}</RadixToast.Description>
            )}
          </div>
          <RadixToast.Close
            aria-label="Close notification"
            className="absolute right-2 top-2 rounded-md p-1 opacity-80 hover:opacity-100"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed bottom-20 left-0 right-0 z-[100] mx-auto flex max-h-screen w-full flex-col gap-2 p-4 md:bottom-4 md:left-auto md:right-4 md:max-w-[420px]" />
    </RadixToast.Provider>
  );
}
