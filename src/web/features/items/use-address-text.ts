import { useEffect, useRef, useState } from 'react';
import { useDebounced } from '../../lib/use-debounced.ts';

// Browse's typed boxes (spec §2: the search words, and the max price): the text is the box's own and
// follows to the address bar once typing pauses, replacing the entry so Back leaves the page rather
// than stepping through keystrokes. The box never reads back what it wrote: the address bar lags typing
// on a slow phone and reading it back dropped keys.

const TYPING_PAUSE_MS = 300;

/**
 * A box's text, kept in step both ways with `fromAddress`, its value in the address bar: typing calls
 * `write` once it pauses (the caller replaces the history entry); a value that arrives from elsewhere
 * (Back, Forward, a link, 'Clear all filters') becomes the text. Only a value this hook did not write
 * itself is taken in, so the echo of an earlier write never overwrites keys typed since.
 */
export function useAddressText(fromAddress: string, write: (text: string) => void) {
  const [text, setText] = useState(fromAddress);
  const written = useRef(fromAddress);
  // The caller's function may be new at every render; the write below must not re-run then.
  const writeRef = useRef(write);
  writeRef.current = write;

  const writeAddressBar = (typed: string) => {
    written.current = typed;
    writeRef.current(typed);
  };

  useEffect(() => {
    if (fromAddress === written.current) return;
    written.current = fromAddress;
    setText(fromAddress);
  }, [fromAddress]);

  // Browse arrives pre-rendered: on a slow phone someone can type before the script has taken over the
  // page, and no change event reaches React for those keys. Once it has, the box's own text wins.
  const input = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    const typed = input.current?.value;
    if (typed !== undefined && typed !== text) setText(typed);
  }, []);

  const settled = useDebounced(text, TYPING_PAUSE_MS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: writes only when the typed text settles
  useEffect(() => {
    if (settled !== written.current) writeAddressBar(settled);
  }, [settled]);

  // What the list shows is read from the address, which this text reaches once typing pauses.
  return {
    text,
    setText,
    /** The box: read once after hydration for keys typed before it. */
    input,
  };
}
