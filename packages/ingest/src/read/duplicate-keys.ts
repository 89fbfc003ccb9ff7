const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export interface DuplicateKey {
  /** Where the object is inside the value: `.standard_charges[0]`, or '' for the value itself. */
  at: string;
  key: string;
}

interface Frame {
  /** An object's keys so far; null for a list. */
  keys: Set<string> | null;
  path: string;
  /** A list's entry being read, or the key of an object's value being read. */
  index: number;
  key: string;
}

/**
 * The keys written more than once in one object of a JSON text (JSON.parse keeps the last value
 * and says nothing), each where its object is. The text must be valid JSON: the reader calls this
 * only for a value JSON.parse has read, and only when it has seen more keys in the text than the
 * objects it built hold, so clean files never pay for it.
 */
export function duplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Frame[] = [];
  let expectKey = false;
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    return top.keys === null ? `${top.path}[${top.index}]` : `${top.path}.${top.key}`;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== QUOTE)
        j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) found.push({ at: top.path, key });
        else top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const isObject = c === 0x7b;
      stack.push({ keys: isObject ? new Set() : null, path: childPath(), index: 0, key: '' });
      expectKey = isObject;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
    i++;
  }
  return found;
}
