import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { connect } from '@ratelens/db';
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';

export const OPENAPI_FILE = fileURLToPath(
  new URL('../../../../docs/openapi.json', import.meta.url),
);

/** The OpenAPI document the server publishes at /api/docs/json, as committed text. */
export async function generateOpenApi(): Promise<string> {
  // Building the routes opens no database connection: the pool connects on first query only.
  const connection = connect('postgresql://openapi@127.0.0.1:1/openapi');
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
  });
  const app = await buildApp({
    config,
    secrets: { jwtSecret: 'x'.repeat(32), altchaHmacKey: 'x'.repeat(32) },
    connection,
  });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await connection.close();
  return document;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(OPENAPI_FILE, await generateOpenApi());
  console.log(`Wrote ${OPENAPI_FILE}`);
}
