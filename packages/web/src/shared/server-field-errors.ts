import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from './http.ts';

/**
 * Puts a refused save's field messages (a 400's `errors`) under the form's own inputs. `fieldOf`
 * maps the server's field name to the form's, or to null for a field the form does not show;
 * anything else (403, a network failure) is left to the form's alert.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fieldOf: (field: string) => Path<Values> | null | undefined,
): void {
  if (!(error instanceof ApiRequestError)) return;
  for (const { field, message } of error.fieldErrors) {
    const name = fieldOf(field);
    if (name) setError(name, { type: 'server', message });
  }
}
