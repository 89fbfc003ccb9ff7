import { describe, expect, it } from 'vitest';
import { fieldMessage } from './errors.ts';

describe('fieldMessage', () => {
  it.each([
    ['required', {}, 'codeType is required.'],
    ['invalid_type', { expected: 'string' }, 'codeType must be text.'],
    ['invalid_type', { expected: 'number' }, 'codeType must be a number.'],
    [
      'too_big',
      { maximum: 200, origin: 'string' },
      'codeType must not be more than 200 characters.',
    ],
    ['too_small', { minimum: 1, origin: 'number' }, 'codeType must be at least 1.'],
    [
      'too_small',
      { minimum: 0, inclusive: false, origin: 'number' },
      'codeType must be more than 0.',
    ],
    [
      'too_big',
      { maximum: 10, inclusive: false, origin: 'number' },
      'codeType must be less than 10.',
    ],
    ['too_big', { maximum: 5, origin: 'array' }, 'codeType must not be more than 5 items.'],
    ['invalid_format', { format: 'email' }, 'codeType must be a valid email.'],
    ['invalid_format', { format: 'regex' }, 'codeType is not in the expected form.'],
    ['invalid_value', { values: ['C', 'S'] }, 'codeType must be one of: C, S.'],
    ['invalid_union', {}, 'codeType is not valid.'],
  ])('words %s %j', (rule, params, message) => {
    expect(fieldMessage('codeType', rule, params)).toBe(message);
  });
});
