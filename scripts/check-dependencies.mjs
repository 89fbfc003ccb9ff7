// Every package imported by a workspace package must be declared in that package's package.json.
// npm hoists everything into one node_modules, so an undeclared import works by accident until the
// package that did declare it drops it. Allowed besides the package's own dependencies: the root's
// devDependencies (vitest, Playwright and the other tools every workspace runs under) and, for a
// type-only import such as `hast`, its declared `@types/` package.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'migrations']);

function declared(packageJson) {
  const json = JSON.parse(readFileSync(packageJson, 'utf8'));
  return new Set(Object.keys({ ...json.dependencies, ...json.devDependencies }));
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function typesPackage(name) {
  return `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
}

const tooling = declared('package.json');
const problems = [];
for (const workspace of readdirSync('packages')) {
  const allowed = new Set([...declared(join('packages', workspace, 'package.json')), ...tooling]);
  for (const file of sourceFiles(join('packages', workspace))) {
    // TypeScript's own scanner: imports, exports and import() calls, never strings or comments.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (/^[./]/.test(specifier) || specifier.startsWith('node:')) continue;
      if (builtinModules.includes(specifier)) continue;
      const name = packageName(specifier);
      if (allowed.has(name) || allowed.has(typesPackage(name))) continue;
      problems.push(
        `${file}: imports ${name}, which packages/${workspace}/package.json does not declare`,
      );
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('Every workspace declares what it imports.');
