import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { keepScroll } from './scroll-restoration.tsx';
import { DATE_PARAMS, RESERVE_PARAM } from './use-reserve-param.ts';

// The "Notify me when available" dialog is open while the item page's address says
// `?waitlist=1`, so the Reserve dialog can hand over to it ("Days you need already booked?") in one step:
// one closes as the other opens, without an extra history entry.

export const WAITLIST_PARAM = 'waitlist';

export function useWaitlistParam(): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = params.get(WAITLIST_PARAM) === '1';
  const setOpen = useCallback(
    (next: boolean) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) {
            updated.set(WAITLIST_PARAM, '1');
            updated.delete(RESERVE_PARAM);
            for (const name of DATE_PARAMS) updated.delete(name);
          } else updated.delete(WAITLIST_PARAM);
          return updated;
        },
        { replace: true, ...keepScroll },
      ),
    [setParams],
  );
  return [open, setOpen];
}
