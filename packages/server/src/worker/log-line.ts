/** Control characters other than the tab, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A log message as one line of the worker's plain-text log: line breaks and other control
 * characters (a terminal's escape sequences among them) written as escapes. Messages quote what
 * hospitals' files and visitors wrote (a hospital's name, a contact form's subject), and a line
 * break there would forge a log line of its own.
 */
export function logLine(message: string): string {
  return message.replace(UNPRINTABLE, (character) =>
    character === '\n'
      ? '\\n'
      : character === '\r'
        ? '\\r'
        : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
