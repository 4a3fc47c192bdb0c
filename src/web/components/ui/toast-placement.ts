// A toast never covers the controls a person is using (decision 026): the Pay button, the chat's message
// box, the item page's sticky Reserve bar. They carry `data-toast-avoid`; while a toast shows, the toast
// area sits in its usual corner unless that would cover one of them, and then at the other edge.

export type ToastPlacement = 'bottom' | 'top';

/** The attribute that marks what a toast must not cover. */
export const TOAST_AVOID_ATTRIBUTE = 'data-toast-avoid';

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** How far the toasts sit from the bottom and top edges (the viewport's classes, padding included). */
export function edgeGaps(wide: boolean): { bottom: number; top: number } {
  // Phones: above the 57 px bottom bar (bottom-20) with p-4; wider: bottom-4 / top-16 (under the
  // header) with p-4.
  return wide ? { bottom: 32, top: 80 } : { bottom: 96, top: 16 };
}

function overlap(a: Box, b: Box): number {
  const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return x > 0 && y > 0 ? x * y : 0;
}

/**
 * Where the toasts (measured, wherever they are now: `toasts`) should go: the usual bottom edge
 * unless it covers one of `avoid`, else the top; when both would, whichever covers less.
 */
export function choosePlacement(
  toasts: Box,
  avoid: readonly Box[],
  viewportHeight: number,
  gaps: { bottom: number; top: number },
): ToastPlacement {
  const height = toasts.bottom - toasts.top;
  const at = (top: number): Box => ({ top, bottom: top + height, left: toasts.left, right: toasts.right });
  const covered = (box: Box) => avoid.reduce((sum, a) => sum + overlap(box, a), 0);
  const bottom = covered(at(viewportHeight - gaps.bottom - height));
  if (bottom === 0) return 'bottom';
  const top = covered(at(gaps.top));
  return top < bottom ? 'top' : 'bottom';
}

/** What the toasts must not cover now: shown, and not behind an open dialog. */
export function boxesToAvoid(doc: Document): Box[] {
  const boxes: Box[] = [];
  for (const element of doc.querySelectorAll(`[${TOAST_AVOID_ATTRIBUTE}]`)) {
    if (element.closest('[aria-hidden="true"], [inert]')) continue;
    const r = element.getBoundingClientRect();
    if (r.width > 0 && r.height > 0)
      boxes.push({ top: r.top, bottom: r.bottom, left: r.left, right: r.right });
  }
  return boxes;
}

/** Where the toast area goes: an edge, or (`between`) its top at `top` px, clear of both edges' content. */
export type ToastSpot = { placement: ToastPlacement } | { placement: 'between'; top: number };

const SPACING = 8;

/**
 * Like choosePlacement, but when both edges would cover something (the chat: its header with the way
 * back on top, the message box below), the toasts go in the first gap between the marked boxes that
 * holds them, from the top: they cover neither what was just produced nor the controls in use.
 */
export function chooseSpot(
  toasts: Box,
  avoid: readonly Box[],
  viewportHeight: number,
  gaps: { bottom: number; top: number },
): ToastSpot {
  const placement = choosePlacement(toasts, avoid, viewportHeight, gaps);
  const height = toasts.bottom - toasts.top;
  const at = (top: number): Box => ({ top, bottom: top + height, left: toasts.left, right: toasts.right });
  const covers = (top: number) => avoid.some((a) => overlap(at(top), a) > 0);
  const edgeTop = placement === 'bottom' ? viewportHeight - gaps.bottom - height : gaps.top;
  if (!covers(edgeTop)) return { placement };
  const candidates = avoid
    .flatMap((a) => [a.bottom + SPACING, a.top - SPACING - height])
    .filter((top) => top >= gaps.top && top + height <= viewportHeight - SPACING)
    .sort((a, b) => a - b);
  const clear = candidates.find((top) => !covers(top));
  return clear === undefined ? { placement } : { placement: 'between', top: clear };
}
