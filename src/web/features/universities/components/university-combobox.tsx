import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Search } from 'lucide-react';
import { Popover } from 'radix-ui';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import type { University } from '#shared/schemas/universities.ts';
import { cn } from '../../../lib/cn.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { useUniversitySearch } from '../queries.ts';
import {
  showUniversity,
  TriggerFace,
  triggerClassName,
  type UniversitySelectProps,
} from './university-trigger.tsx';

// Spec §2 Register: a searchable selector over the US university directory, grouped by state.
// A combobox in the WAI-ARIA pattern: typing filters, arrows move, Enter chooses, Escape closes.
// Loaded when someone comes near its button (university-select.tsx): Radix's popover and the
// positioning under it are not in the first script of Home and Browse.

export function UniversityCombobox({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  placeholder,
  contentLabel,
  display = showUniversity,
  openAtOnce = false,
}: UniversitySelectProps & {
  /** The button was pressed before this had loaded: open as it appears. */
  openAtOnce?: boolean;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(openAtOnce);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const debounced = useDebounced(query.trim(), 200);
  const search = useUniversitySearch(debounced, open);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const groups = search.data?.groups ?? [];
  const options = useMemo(() => groups.flatMap((g) => g.universities), [groups]);
  const optionId = (i: number) => `${listId}-option-${i}`;

  const choose = (university: University) => {
    onChange(university);
    setOpen(false);
    setQuery('');
  };

  const move = (delta: number) => {
    if (!options.length) return;
    const next = (active + delta + options.length) % options.length;
    setActive(next);
    document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      move(1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      move(-1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const option = options[active];
      if (option) choose(option);
    }
  };

  let index = -1;
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setActive(0);
      }}
    >
      <Popover.Trigger
        id={id}
        type="button"
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={triggerClassName(invalid)}
      >
        <TriggerFace value={value} placeholder={placeholder} display={display} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          aria-label={contentLabel ?? t`Choose your university`}
          align="start"
          sideOffset={4}
          className="z-50 w-[var(--radix-popover-trigger-width)] min-w-72 rounded-xl border border-line bg-white shadow-xl"
        >
          <div className="flex items-center gap-2 border-b border-line px-3">
            <Search className="h-4 w-4 text-stone-500" aria-hidden="true" />
            <input
              role="combobox"
              aria-expanded="true"
              aria-controls={listId}
              aria-autocomplete="list"
              aria-label={t`Search universities`}
              aria-activedescendant={options[active] ? optionId(active) : undefined}
              placeholder={t`Search by name, city, or state`}
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setActive(0);
              }}
              onKeyDown={onKeyDown}
              className="h-11 w-full bg-transparent text-base outline-none placeholder:text-stone-500"
            />
          </div>
          <div
            ref={listRef}
            id={listId}
            role="listbox"
            aria-label={t`Universities`}
            className="max-h-72 overflow-y-auto p-1"
          >
            {search.isPending ? (
              <p className="px-3 py-6 text-center text-sm text-muted">
                <Trans>Searching…</Trans>
              </p>
            ) : options.length === 0 ? (
              <div className="px-3 py-6 text-center">
                <p className="text-sm font-semibold text-ink">
                  <Trans>No universities found.</Trans>
                </p>
                <p className="mt-1 text-sm text-muted">
                  <Trans>Try searching by name, city, or state</Trans>
                </p>
              </div>
            ) : (
              groups.map((group) => (
                // biome-ignore lint/a11y/useSemanticElements: a fieldset cannot group options inside a listbox; ARIA's group role can.
                <div key={group.state} role="group" aria-label={group.stateName}>
                  <div
                    className="px-3 pb-1 pt-2 text-xs font-bold uppercase tracking-wide text-muted"
                    aria-hidden="true"
                  >
                    {group.stateName}
                  </div>
                  {group.universities.map((university) => {
                    index += 1;
                    const i = index;
                    const selected = value?.name === university.name && value.domain === university.domain;
                    return (
                      <div
                        key={`${university.name}-${university.city}`}
                        id={optionId(i)}
                        role="option"
                        tabIndex={-1}
                        aria-selected={selected}
                        onMouseEnter={() => setActive(i)}
                        onMouseDown={(e) => e.preventDefault()}
                        onClick={() => choose(university)}
                        onKeyDown={() => {}}
                        className={cn(
                          'flex cursor-pointer items-start gap-2 rounded-lg px-3 py-2 text-sm',
                          i === active ? 'bg-brand-50 text-brand-900' : 'text-ink',
                        )}
                      >
                        <Check
                          className={cn('mt-0.5 h-4 w-4 shrink-0', selected ? 'opacity-100' : 'opacity-0')}
                          aria-hidden="true"
                        />
                        <span>
                          <span className="block font-medium">{university.name}</span>
                          <span className="block text-xs text-muted">
                            {university.city}, {university.state}
                          </span>
                        </span>
                      </div>
                    );
                  })}
                </div>
              ))
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
