/** `./file.md?tree`: the file compiled to a hast tree at build time (build/markdown.ts). */
declare module '*.md?tree' {
  import type { Root } from 'hast';

  const tree: Root;
  export default tree;
}
