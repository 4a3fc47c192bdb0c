import { t } from '@lingui/core/macro';
import { z } from 'zod';
import { plainText } from './fields.ts';

export const universitySearchQuery = z.object({
  q: plainText()
    .trim()
    .max(100, { error: () => t`Search text is too long` })
    .optional()
    .default(''),
});

export const university = z.object({
  name: z.string(),
  state: z.string(),
  city: z.string(),
  /** The primary e-mail/web domain: what a user's `campus` stores. */
  domain: z.string(),
});
export type University = z.infer<typeof university>;

export const universityGroup = z.object({
  state: z.string(),
  stateName: z.string(),
  universities: z.array(university),
});
export type UniversityGroup = z.infer<typeof universityGroup>;

export const universitySearchResponse = z.object({
  groups: z.array(universityGroup),
  total: z.number().int(),
});

export const universityDetectQuery = z.object({
  email: plainText()
    .trim()
    .max(254, { error: () => t`E-mail is too long` }),
});

export const universityDetectResponse = z.object({
  /** The best match for the e-mail's domain, or null when the domain is not in the directory. */
  university: university.nullable(),
  /** Every university that shares the matched domain (chains such as multi-campus colleges). */
  candidates: z.array(university),
});

/** GET /api/universities/campus/{campus}: a campus domain's name as screens show it (the campus switch). */
export const campusNameResponse = z.object({
  campus: z.string(),
  campusName: z.string(),
  /** Whether the domain is a campus of the directory (else the name is the domain itself). */
  known: z.boolean(),
});
export type CampusName = z.infer<typeof campusNameResponse>;
