import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { keepScroll } from './scroll-restoration.tsx';

// The Reserve dialog is open while the item page's address says `?reserve=1`, so
// 'Login to Reserve' can bring the student back with it open, and the phone's sticky bar opens the
// same dialog. Opening and closing replace the address (no extra history entries) and keep the scroll.

export const RESERVE_PARAM = 'reserve';
/** Dates to start on (`?start=&end=`), from a waitlist's "free now". */
export const DATE_PARAMS = ['start', 'end'] as const;

/** The dates the address asks the dialog to start on, if any. */
export function useReserveDates(): { startDate: string; endDate: string } | null {
  const [params] = useSearchParams();
  const [startDate, endDate] = DATE_PARAMS.map((name) => params.get(name));
  return startDate && endDate ? { startDate, endDate } : null;
}

export function useReserveParam(): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = params.get(RESERVE_PARAM) === '1';
  const setOpen = useCallback(
    (next: boolean) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set(RESERVE_PARAM, '1');
          else {
            updated.delete(RESERVE_PARAM);
            for (const name of DATE_PARAMS) updated.delete(name);
          }
          return updated;
        },
        { replace: true, ...keepScroll },
      ),
    [setParams],
  );
  return [open, setOpen];
}
