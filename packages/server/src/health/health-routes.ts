import { HealthSchema, type Health } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod<{ pool: Pool; version: string }> = async (
  app,
  { pool, version },
) => {
  app.get('/health', {
    schema: {
      tags: ['Operations'],
      summary: 'Liveness and database status',
      response: { 200: HealthSchema, 503: HealthSchema },
    },
    handler: async (_request, reply) => {
      const started = performance.now();
      const up = await pool.query('SELECT 1').then(
        () => true,
        () => false,
      );
      const body: Health = {
        status: up ? 'ok' : 'degraded',
        version,
        uptimeSeconds: Math.round(process.uptime()),
        database: {
          status: up ? 'up' : 'down',
          latencyMs: up ? Math.round((performance.now() - started) * 10) / 10 : null,
        },
      };
      return reply.status(up ? 200 : 503).send(body);
    },
  });
};
