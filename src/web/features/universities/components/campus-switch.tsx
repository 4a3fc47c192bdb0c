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
  tone?: 'light' | 'dark';
  className?: string;
}) {
  const { t } = useLingui();
  const id = useId();
  const name = useCampusName(campus);
  const shownName =
    campus === ALL_CAMPUSES ? t`All campuses` : (name.data?.campusName ?? (name.isError ? campus : ''));
  return (
    <div className={cn('flex flex-col gap-2 sm:flex-row sm:items-end', className)}>
      {/* On a phone the label sits beside the list, one row: the first items stay on the first screen. */}
      <div className="flex min-w-0 items-center gap-2 sm:block sm:w-96">
        <label
          htmlFor={id}
          className={cn(
            'flex shrink-0 items-center gap-1.5 text-sm font-semibold sm:mb-1',
            tone === 'dark' ? 'text-white' : 'text-ink',
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
      <div className="flex flex-wrap gap-2">
        {ownCampus && campus !== ownCampus && (
          <Button variant="outline" onClick={() => onChange(ownCampus)}>
            <Home className="h-4 w-4" aria-hidden="true" />
            <Trans>My campus</Trans>
          </Button>
        )}
        {allowAll && campus !== ALL_CAMPUSES && (
          <Button variant="outline" onClick={() => onChange(ALL_CAMPUSES)}>
            <Globe className="h-4 w-4" aria-hidden="true" />
            <Trans>All campuses</Trans>
          </Button>
        )}
      </div>
    </div>
  );
}
