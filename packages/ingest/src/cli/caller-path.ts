import path from 'node:path';

/**
 * A file named on the command line, as the person meant it: npm runs a script at the
 * repository's root whatever directory it was started in, and says which in INIT_CWD, so a
 * relative path is taken from there. URLs and absolute paths are left as they are.
 */
export function fromCallerDirectory(source: string, env: NodeJS.ProcessEnv = process.env): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(source) || path.isAbsolute(source)) return source;
  return path.resolve(env.INIT_CWD || process.cwd(), source);
}
