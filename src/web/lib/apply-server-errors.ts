import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api.ts';

/** Puts the server's per-field messages (validation issues, a taken e-mail or username) on the fields. */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: string[],
) {
  if (!(error instanceof ApiError)) return;
  for (const issue of error.issues ?? []) {
    if (fields.includes(issue.path)) setError(issue.path as Path<T>, { message: issue.message });
  }
  if (error.code === 'EMAIL_TAKEN' && fields.includes('email'))
    setError('email' as Path<T>, { message: error.message });
  if (error.code === 'USERNAME_TAKEN' && fields.includes('username')) {
    setError('username' as Path<T>, { message: error.message });
  }
}
