import { listOutboxMessages, type Database } from '@ratelens/db';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { escapeHtml } from '../http/html.ts';

const CHANNEL_NAMES: Record<string, string> = { email: 'E-mail', sms: 'Text message' };

const QuerySchema = z.object({ to: z.string().max(254).optional() });

/** Escapes a plain-text body and turns its http(s) addresses into links. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * Whether this server has the outbox pages: outside production, and only while its public
 * address is this machine. A server people reach under another name is a deployment, even one
 * started without NODE_ENV=production, and a proxy on its machine that adds no forwarding
 * header would make every visitor look local to `isLocalRequest`.
 */
export function outboxServed(config: Pick<Config, 'NODE_ENV' | 'PUBLIC_URL'>): boolean {
  if (config.NODE_ENV === 'production') return false;
  if (!config.PUBLIC_URL) return true;
  const host = new URL(config.PUBLIC_URL).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether a request came straight from this machine: a loopback peer, and no proxy's header. */
export function isLocalRequest(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? '';
  const loopback = peer === '::1' || /^(::ffff:)?127\./.test(peer);
  const proxied = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((h) => h in request.headers);
  return loopback && !proxied;
}

/**
 * Outside production only: the messages the outbox mail and SMS drivers kept, so a person trying
 * the product (or a browser test) can open the verification, reset and report links. They hold
 * every account's reset links, so they answer only a browser on this machine: a server started
 * without NODE_ENV=production and reached from elsewhere (or through a proxy) answers 404.
 */
export const outboxRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!isLocalRequest(request)) return reply.callNotFound();
  });
  app.get('/dev/outbox.json', {
    schema: { hide: true, querystring: QuerySchema },
    handler: async (request) => {
      const rows = await listOutboxMessages(db, { to: request.query.to?.toLowerCase() });
      return rows.map((row) => ({
        channel: row.channel,
        to: row.to,
        subject: row.subject,
        text: row.text,
        html: row.html,
        sentAt: row.sentAt.toISOString(),
      }));
    },
  });

  app.get('/dev/outbox', {
    schema: { hide: true, querystring: QuerySchema },
    handler: async (request, reply) => {
      const rows = await listOutboxMessages(db, { to: request.query.to?.toLowerCase() });
      const items = rows
        .map(
          (row) => `<article>
  <h2>${escapeHtml(row.subject)}</h2>
  <p class="meta"><span class="channel">${escapeHtml(CHANNEL_NAMES[row.channel] ?? row.channel)}</span> to ${escapeHtml(row.to)} · ${escapeHtml(row.sentAt.toISOString())}</p>
  <pre>${linkify(row.text)}</pre>
</article>`,
        )
        .join('\n');
      const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox · RateLens (development)</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
article{border:1px solid #ccc;border-radius:8px;padding:0 1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}
.meta{color:#555;font-size:.9rem}.channel{font-weight:600;color:#1a1b1e}</style></head>
<body><main><h1>Outbox</h1><p>Every e-mail and text message RateLens has sent through the outbox drivers, newest first. This page exists only outside production.</p>
${items || '<p>No messages yet.</p>'}</main></body></html>`;
      return reply.type('text/html; charset=utf-8').send(page);
    },
  });
};
