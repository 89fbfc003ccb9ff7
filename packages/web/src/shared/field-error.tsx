import type { FieldError } from 'react-hook-form';
import { fieldMessages } from './field-messages.ts';

/** The content of a Mantine input's `error` prop: one line per message, or nothing. */
export function fieldError(error: FieldError | undefined, shown = true) {
  const messages = shown ? fieldMessages(error) : [];
  if (messages.length === 0) return undefined;
  return (
    <>
      {messages.map((message) => (
        <span key={message} style={{ display: 'block' }}>
          {message}
        </span>
      ))}
    </>
  );
}
