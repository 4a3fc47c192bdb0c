import { LIMITS } from '#shared/constants.ts';
import { campusName, detectUniversity, isKnownCampus, searchUniversities } from './directory.ts';

// What other features may ask of the university directory.

export const universityService = {
  search: (q: string) =>
    searchUniversities(q, { default: LIMITS.universitiesDefault, max: LIMITS.universitiesMax }),
  detect: detectUniversity,
  isKnownCampus,
  campusName,
  /**
   * A campus a person with this e-mail may join: when the e-mail's domain is in the directory, one of
   * the universities sharing that domain (a Stanford address cannot join Berkeley); otherwise any
   * listed campus, because many student e-mail domains are missing from the directory.
   */
  campusAllowedFor(email: string, campus: string): 'ok' | 'unknown' | 'mismatch' {
    if (!isKnownCampus(campus)) return 'unknown';
    const { candidates } = detectUniversity(email);
    if (candidates.length === 0) return 'ok';
    return candidates.some((c) => c.domain === campus) ? 'ok' : 'mismatch';
  },
};
