import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * Writes a file called `name` in a folder of its own under the system's temporary folder, and
 * removes the folder when the test that wrote it finishes, passed or failed.
 */
export async function writeTestFile(name: string, content: string | Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ratelens-test-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}
