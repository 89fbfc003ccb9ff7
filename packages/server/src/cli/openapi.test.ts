import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generateOpenApi, OPENAPI_FILE } from './openapi.ts';

describe('docs/openapi.json', () => {
  it('is the document the server publishes (run `npm run openapi` after changing a route)', async () => {
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(await generateOpenApi());
  });
});
