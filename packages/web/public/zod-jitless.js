// Runs before the app's modules (a classic script, outside Vite's bundle): zod reads this object
// when it loads. Told nothing, zod builds each object schema's parser with `new Function`, probing
// for it first; the page's Content-Security-Policy forbids that (docs/decisions/0020), so the
// browser reported a violation on every page. zod parses the same without it. It cannot be a
// module of the app: the bundle evaluates zod and the schemas before any line of main.tsx runs.
globalThis.__zod_globalConfig = { jitless: true };
