import { Trans, useLingui } from '@lingui/react/macro';
import { Globe, Home, MapPin } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useCampusName } from '../queries.ts';
import { UniversitySelect } from './university-select.tsx';

// 'My campus first': which campus Home and Browse show, with a visible, labelled switch. The
// list is the university directory's combobox (type, arrows, Enter, Escape); 'My campus' and 'All
// campuses' are one press away. Campus names are shown whole, wrapping between words.

export const ALL_CAMPUSES = 'all';

export function CampusSwitch({
  campus,
  ownCampus,
  onChange,
  allowAll = false,
  compact = false,
  tone = 'light',
  className,
}: {
  /** The campus shown: a domain, or 'all'. */
  campus: string;
  /** The signed-in student's campus, for 'My campus'. */
  ownCampus?: string;
  onChange: (campus: string) => void;
  /** Browse can show every campus at once. */
  allowAll?: boolean;
  /**
   * One row on a phone (Browse, where the results must start on the first screen): the label and the
   * quick choices show their icons only, their words from sm up (still their accessible names).
   */
  compact?: boolean;
  tone?: 'light' | 'dark';
  className?: string;
}) {
  const { t } = useLingui();
  const id = useId();
  const name = useCampusName(campus);
  const shownName =
    campus === ALL_CAMPUSES ? t`All campuses` : (name.data?.campusName ?? (name.isError ? campus : ''));
  const words = compact ? 'sr-only sm:not-sr-only' : undefined;
  return (
    <div
      className={cn(
        'flex gap-2 sm:flex-row sm:items-end',
        compact ? 'flex-row items-center' : 'flex-col',
        className,
      )}
    >
      {/* On a phone the label sits beside the list, one row: the first items stay on the first screen. */}
      <div
        className={cn('flex min-w-0 items-center gap-2 sm:block sm:w-96', compact && 'flex-1 sm:flex-none')}
      >
        {compact && <MapPin className="h-4 w-4 shrink-0 text-ink sm:hidden" aria-hidden="true" />}
        <label
          htmlFor={id}
          className={cn(
            'flex shrink-0 items-center gap-1.5 text-sm font-semibold sm:mb-1',
            tone === 'dark' ? 'text-white' : 'text-ink',
            words,
          )}
        >
          <MapPin className="h-4 w-4" aria-hidden="true" />
          <Trans>Campus</Trans>
        </label>
        <UniversitySelect
          id={id}
          value={{ name: shownName || t`Loading campus…`, domain: campus, state: '', city: '' }}
          onChange={(university) => onChange(university.domain)}
          placeholder={t`Choose a campus`}
          contentLabel={t`Choose a campus`}
          display={(university) => university.name}
        />
      </div>
      <div className={cn('flex gap-2', compact ? 'shrink-0' : 'flex-wrap')}>
        {ownCampus && campus !== ownCampus && (
          <Button
            variant="outline"
            onClick={() => onChange(ownCampus)}
            className={cn(compact && 'px-3 sm:px-4')}
          >
            <Home className="h-4 w-4" aria-hidden="true" />
            <span className={words}>
              <Trans>My campus</Trans>
            </span>
          </Button>
        )}
        {allowAll && campus !== ALL_CAMPUSES && (
          <Button
            variant="outline"
            onClick={() => onChange(ALL_CAMPUSES)}
            className={cn(compact && 'px-3 sm:px-4')}
          >
            <Globe className="h-4 w-4" aria-hidden="true" />
            <span className={words}>
              <Trans>All campuses</Trans>
            </span>
          </Button>
        )}
      </div>
    </div>
  );
}
