import { useSyncExternalStore } from 'react';

// The toast store (spec §4 Toast area, §9): at most one toast; add, update, dismiss; a dismissed toast
// is removed 1,000,000 ms later (its exit animation and screen-reader announcement finish long before).

/** A button in the toast (spec §3 Toast message `action`); `altText` says how else to do it. */
export interface ToastAction {
  label: string;
  altText: string;
  onClick: () => void;
}

export interface Toast {
  id: string;
  title?: string;
  description?: string;
  action?: ToastAction;
  variant?: 'default' | 'destructive';
  open: boolean;
}

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;

/** None: the first state, and the state of every page the server renders. */
const noToasts: Toast[] = [];
let toasts: Toast[] = noToasts;
let counter = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: Toast[]) {
  toasts = next;
  for (const l of listeners) l();
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismiss(id?: string) {
  for (const t of toasts) if (!id || t.id === id) scheduleRemoval(t.id);
  emit(toasts.map((t) => (!id || t.id === id ? { ...t, open: false } : t)));
}

export function update(id: string, patch: Partial<Omit<Toast, 'id'>>) {
  emit(toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)));
}

export function toast(input: Omit<Toast, 'id' | 'open'>) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismiss(id), update: (patch: Partial<Omit<Toast, 'id'>>) => update(id, patch) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The toasts to show; none in a page the server renders (and so none while the browser hydrates it). */
export function useToasts(): Toast[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => noToasts,
  );
}
