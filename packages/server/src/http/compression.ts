/**
 * Compression of the API's large answers (docs/decisions/0019, point 3). The plugin is registered
 * with `global: false`, so an answer is compressed only where its route opts in with
 * `compress: LARGE_ANSWER`: the inventory's lists of hospitals and a hospital's page, which run to
 * megabytes at the US's 6,000 hospitals, are asked for once a visit and carry nothing secret.
 * The rate search stays plain: compressing its 21 kB answers cost a quarter of its throughput
 * under `npm run bench:search` (ADR 0019). Answers that carry a token (sign-in, sessions, links)
 * stay plain too: a secret compressed beside text the requester chose can be read from the
 * answer's length (BREACH).
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Brotli at quality 4 (the plugin's default, about 12 ms for a 2 MB listing on this machine), else
 * gzip, as the request's Accept-Encoding allows; answers under 1 KB are sent as they are.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, { global: false, encodings: ['br', 'gzip'] });
}

/** The route option of an answer worth compressing: big, and holding no secret. */
export const LARGE_ANSWER = { threshold: 1024 } as const;
