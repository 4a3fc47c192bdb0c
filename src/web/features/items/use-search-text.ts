import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useDebounced } from '../../lib/use-debounced.ts';

// Browse's search box (spec §2): the text is the box's own and follows to the address bar (?q=) once
// typing pauses, replacing the entry so Back leaves the page rather than stepping through keystrokes.
// The box never reads back what it wrote: the address bar lags typing on a slow phone and reading it
// back dropped keys.

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box's text, and the address bar's ?q= kept in step with it both ways: typing writes q
 * once it pauses (replacing the entry); a q that arrives from elsewhere (Back, Forward, a link with
 * ?q=) becomes the text. Only a q this hook did not write itself is taken in, so the echo of an
 * earlier write never overwrites keys typed since.
 */
export function useSearchText() {
  const [searchParams, setSearchParams] = useSearchParams();
  const addressBar = searchParams.get('q') ?? '';
  const [search, setSearch] = useState(addressBar);
  const written = useRef(addressBar);
  // React Router makes a new setter whenever the address changes; the write below must not re-run then.
  const setParams = useRef(setSearchParams);
  setParams.current = setSearchParams;

  const writeAddressBar = (text: string) => {
    written.current = text;
    setParams.current(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (text) next.set('q', text);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  };

  useEffect(() => {
    if (addressBar === written.current) return;
    written.current = addressBar;
    setSearch(addressBar);
  }, [addressBar]);

  // Browse arrives pre-rendered: on a slow phone someone can type before the script has taken over the
  // page, and no change event reaches React for those keys. Once it has, the box's own text wins.
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const typed = input.current?.value;
    if (typed !== undefined && typed !== search) setSearch(typed);
  }, []);

  const settled = useDebounced(search, SEARCH_DEBOUNCE_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: writes only when the typed text settles
  useEffect(() => {
    if (settled !== written.current) writeAddressBar(settled);
  }, [settled]);

  return {
    search,
    setSearch,
    /** The search box: read once after hydration for keys typed before it. */
    input,
    /** The text once typing pauses, as the list searches it. */
    settledSearch: settled.trim(),
    clearSearch: () => {
      setSearch('');
      writeAddressBar('');
    },
  };
}
