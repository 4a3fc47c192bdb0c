import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

// Issue 16: the Reserve dialog is open while the item page's address says `?reserve=1`, so
// 'Login to Reserve' can bring the student back with it open, and the phone's sticky bar opens the
// same dialog. Opening and closing replace the address (no extra history entries) and keep the scroll.

export const RESERVE_PARAM = 'reserve';

export function useReserveParam(): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = params.get(RESERVE_PARAM) === '1';
  const setOpen = useCallback(
    (next: boolean) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set(RESERVE_PARAM, '1');
          else updated.delete(RESERVE_PARAM);
          return updated;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );
  return [open, setOpen];
}
