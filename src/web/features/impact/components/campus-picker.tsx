import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { UniversitySelect } from '../../universities/api.ts';
import { useImpactCampuses } from '../api.ts';

/**
 * Spec §2 Dashboard: anyone may look at any campus. The whole university directory is searchable;
 * the most active campuses are one tap away.
 */
export function CampusPicker({
  campus,
  campusName,
  onChange,
}: {
  campus: string;
  campusName: string;
  onChange: (campus: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const campuses = useImpactCampuses();
  const others = (campuses.data?.campuses ?? []).filter((c) => c.campus !== campus).slice(0, 3);
  return (
    <div className="w-full max-w-md">
      <label htmlFor={id} className="mb-1 block text-sm font-semibold text-white">
        <Trans>Campus</Trans>
      </label>
      <UniversitySelect
        id={id}
        value={{ name: campusName, domain: campus, state: '', city: '' }}
        onChange={(university) => onChange(university.domain)}
        placeholder={t`Choose a campus`}
        contentLabel={t`Choose a campus`}
        display={(university) => university.name}
      />
      {others.length > 0 && (
        <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-brand-50">
            <Trans>Also sharing:</Trans>
          </span>
          {others.map((c) => (
            <button
              key={c.campus}
              type="button"
              onClick={() => onChange(c.campus)}
              className="min-h-9 rounded-full border border-white/60 px-3 font-semibold text-white hover:bg-white/10"
            >
              {c.campusName}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
