import type { FieldError } from 'react-hook-form';

/**
 * Every message of a field, in order and without repeats. With `criteriaMode: 'all'` the zod
 * resolver keeps all broken rules in `types`, so a weak password lists them together
 * (subscriptions-and-payments §5 "messages are listed together").
 */
export function fieldMessages(error: FieldError | undefined): string[] {
  if (!error) return [];
  const messages: string[] = [];
  for (const value of Object.values(error.types ?? {})) {
    if (typeof value === 'string') messages.push(value);
    else if (Array.isArray(value)) messages.push(...value.filter((v) => typeof v === 'string'));
  }
  if (messages.length === 0 && error.message) messages.push(error.message);
  return [...new Set(messages)];
}
