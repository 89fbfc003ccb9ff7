/**
 * An IPv6 address's eight 16-bit groups, `::` expanded and a dotted IPv4 tail read as the last
 * two. For an address node:net's isIP already found to be IPv6; anything else gives nonsense.
 */
export function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address.replace(/%.*$/, '');
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    const tail = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    text = `${text.slice(0, dotted.index)}${tail}`;
  }
  const [head = '', rest] = text.split('::');
  const parts = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const before = parts(head);
  const after = rest === undefined ? [] : parts(rest);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}
