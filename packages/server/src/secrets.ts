import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.ts';

export interface Secrets {
  jwtSecret: string;
  altchaHmacKey: string;
}

/**
 * Secrets come from the environment. Outside production a missing one is generated once and
 * kept beside the embedded database (DATA_DIR/dev-secrets.json, mode 600) so that a restart keeps
 * sessions valid; production refuses to start without them (see config.ts).
 */
export async function resolveSecrets(config: Config): Promise<Secrets> {
  if (config.JWT_SECRET && config.ALTCHA_HMAC_KEY) {
    return { jwtSecret: config.JWT_SECRET, altchaHmacKey: config.ALTCHA_HMAC_KEY };
  }
  const file = path.resolve(config.DATA_DIR, 'dev-secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(await readFile(file, 'utf8')) as Partial<Secrets>;
  const secrets: Secrets = {
    jwtSecret: config.JWT_SECRET ?? stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    altchaHmacKey:
      config.ALTCHA_HMAC_KEY ?? stored.altchaHmacKey ?? randomBytes(48).toString('base64url'),
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
