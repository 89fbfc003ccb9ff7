import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Connection } from '@ratelens/db';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { authRoutes } from './auth/auth-routes.ts';
import { AuthService } from './auth/auth-service.ts';
import { AccessTokens } from './auth/tokens.ts';
import { captchaRoutes } from './captcha/captcha-routes.ts';
import { captchaService } from './captcha/captcha-service.ts';
import type { Config } from './config.ts';
import { outboxRoutes, outboxServed } from './dev/outbox-routes.ts';
import { downloadsRoutes } from './downloads/downloads-routes.ts';
import { feedbackRoutes } from './feedback/feedback-routes.ts';
import { FeedbackService } from './feedback/feedback-service.ts';
import { healthRoutes } from './health/health-routes.ts';
import { inventoryAdminRoutes } from './inventory/inventory-admin-routes.ts';
import { inventoryRoutes } from './inventory/inventory-routes.ts';
import { InventoryService } from './inventory/inventory-service.ts';
import { RefreshRequests } from './worker/refresh-requests.ts';
import { registerBodyParsers } from './http/body-types.ts';
import { clientKey } from './http/client-key.ts';
import { registerCompression } from './http/compression.ts';
import { errorBody, registerErrorHandler, tooManyRequests } from './http/errors.ts';
import { clientError, frameworkError } from './http/framework-errors.ts';
import { registerNulCharacterCheck } from './http/nul-characters.ts';
import { loggerOptions } from './http/logging.ts';
import { BASELINE_HEADERS, PAGE_POLICY, webCacheHeaders } from './http/web-headers.ts';
import { API_ERROR_COMPONENT, withErrorResponses } from './http/openapi-errors.ts';
import { queuedMailer } from './mail/mail-queue.ts';
import { outboxMailer, smtpTransport, type Mailer } from './mail/mailer.ts';
import { searchAdminRoutes } from './oobrates/admin-routes.ts';
import { Entitlements } from './oobrates/entitlements.ts';
import { oobRatesRoutes } from './oobrates/oobrates-routes.ts';
import { OobRatesService } from './oobrates/oobrates-service.ts';
import { Organisations } from './oobrates/organisations.ts';
import { RatesSearch } from './oobrates/rates-search.ts';
import { partnersRoutes } from './partners/partners-routes.ts';
import { paymentsArea } from './payments/payments-area.ts';
import { reportsRoutes } from './reports/report-links.ts';
import { smsSenderFor } from './sms/sms.ts';
import { subscriptionsArea } from './subscriptions/subscriptions-area.ts';
import { PartnersService } from './partners/partners-service.ts';
import type { Secrets } from './secrets.ts';
import { usersRoutes } from './users/users-routes.ts';
import { UsersService } from './users/users-service.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  config: Config;
  secrets: Secrets;
  connection: Connection;
  /** Replaces the mailer chosen by MAIL_DRIVER (tests pass a real SMTP-backed one, for instance). */
  mailer?: Mailer;
  /** Where log lines go; standard output when absent (tests read them from here). */
  logStream?: { write: (line: string) => void };
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export function publicUrlOf(config: Config): string {
  return config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
}

export async function buildApp({
  config,
  secrets,
  connection,
  mailer,
  logStream,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Node's own limit on receiving a whole request, which Fastify would turn off: a body that
    // comes a byte at a time must not hold its socket for ever (uploads are at most 10 MB).
    requestTimeout: 300_000,
    // A connection that sends and takes nothing for this long is closed. Longer than any wait a
    // request may have for an answer (the payment gateway's, PAYMENT_GATEWAY_TIMEOUT_MS, is at
    // most 120 s); an export its client stopped reading has its own limits (ADR 0016).
    connectionTimeout: 150_000,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  // Every answer, before a route adds its own: a browser uses the type we send, never one it
  // guesses, and shows no page of ours inside another site's frame (the checkout takes card
  // numbers: a framed copy could be dressed to take them). A route may send a stricter policy.
  app.addHook('onRequest', async (_request, reply) => {
    void reply.headers(BASELINE_HEADERS);
  });
  registerErrorHandler(app);
  registerNulCharacterCheck(app);
  registerBodyParsers(app);

  const db = connection.db;
  const chosenMailer =
    mailer ??
    (config.MAIL_DRIVER === 'smtp' && config.SMTP_URL
      ? queuedMailer(connection.pool, smtpTransport(config.SMTP_URL, config.MAIL_FROM), {
          info: (message) => app.log.info(message),
          warn: (message) => app.log.warn(message),
          error: (message) => app.log.error(message),
        })
      : outboxMailer(db));
  const captcha = captchaService(db, secrets.altchaHmacKey, config.ALTCHA_MAX_NUMBER);
  const auth = new AuthService({
    db,
    pool: connection.pool,
    mailer: chosenMailer,
    captcha,
    tokens: new AccessTokens(secrets.jwtSecret, config.ACCESS_TOKEN_TTL),
    config,
    publicUrl: publicUrlOf(config),
  });
  const users = new UsersService(db);

  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (request) => clientKey(request.ip),
    errorResponseBuilder: (_request, context) =>
      tooManyRequests(`Too many requests. Please wait ${context.after} and try again.`),
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'RateLens API',
        version: VERSION,
        description:
          'Hospital negotiated-rate search. Error shape: docs/decisions/0004-error-format.md.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          secretKey: { type: 'apiKey', in: 'header', name: 'secret_key' },
        },
        schemas: API_ERROR_COMPONENT,
      },
    },
    transform: withErrorResponses,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  // Before the routes: they opt in to it one by one (`compress: LARGE_ANSWER`).
  await registerCompression(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { pool: connection.pool, version: VERSION });
      await api.register(captchaRoutes, {
        captcha,
        rateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      });
      await api.register(authRoutes, {
        auth,
        rateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      });
      await api.register(usersRoutes, { auth, users });
      // Refresh requests go to the background worker's queue, whichever process runs it.
      const refreshes = new RefreshRequests(connection.pool);
      app.addHook('onClose', () => refreshes.close());
      const inventory = new InventoryService(connection.pool, refreshes);
      await api.register(inventoryRoutes, { inventory });
      await api.register(inventoryAdminRoutes, { auth, inventory });
      await api.register(feedbackRoutes, {
        auth,
        feedback: new FeedbackService({
          db,
          mailer: chosenMailer,
          teamEmail: config.TEAM_EMAIL,
          publicUrl: publicUrlOf(config),
          uploadBytesPerDay: config.FEEDBACK_UPLOAD_MB_PER_DAY * 1024 * 1024,
        }),
        rateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      });
      await api.register(partnersRoutes, { auth, partners: new PartnersService(db) });
      await api.register(downloadsRoutes, { pool: connection.pool });
      const ratesSearch = new RatesSearch(connection.pool);
      app.addHook('onClose', () => ratesSearch.close());
      await api.register(oobRatesRoutes, {
        auth,
        oobRates: new OobRatesService({
          db,
          entitlements: new Entitlements(connection.pool),
          search: ratesSearch,
          sms: smsSenderFor(config, db),
          publicUrl: publicUrlOf(config),
          reportLinkTtlHours: config.REPORT_LINK_TTL_HOURS,
          textReportsPerUserPerDay: config.TEXT_REPORTS_PER_USER_PER_DAY,
        }),
        textRateLimitPerHour: config.TEXT_REPORTS_PER_HOUR,
      });
      await api.register(searchAdminRoutes, {
        auth,
        organisations: new Organisations(connection.pool),
        search: ratesSearch,
      });
      await api.register(reportsRoutes, { db });
      await api.register(subscriptionsArea, {
        auth,
        pool: connection.pool,
        mailer: chosenMailer,
        teamEmail: config.TEAM_EMAIL,
        rateLimitPerMinute: config.AUTH_RATE_LIMIT_PER_MINUTE,
      });
      await api.register(paymentsArea, {
        auth,
        pool: connection.pool,
        mailer: chosenMailer,
        captcha,
        config,
      });
    },
    { prefix: '/api' },
  );

  if (outboxServed(config)) await app.register(outboxRoutes, { db });

  const webDist = path.resolve(config.WEB_DIST_DIR ?? defaultWebDist);
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  // The files of the build present at start are routed; `npm start` always builds before it serves.
  if (hasWeb)
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its text files (packages/web/build/precompress.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: webCacheHeaders,
    });

  // Unknown API paths answer the error shape; any other GET is a route of the single-page app.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (request.method === 'GET' && !/^\/(api|dev)(\/|$)/i.test(url)) {
      // A file the build does not have (/favicon.ico, an old build's script) is not a page: a 404,
      // not the app's HTML under a script's or an image's name.
      if (/\.[a-z0-9]+$/i.test(url))
        return reply.status(404).type('text/plain').send('No such file.');
      if (hasWeb)
        return reply
          .header('content-security-policy', PAGE_POLICY)
          .type('text/html; charset=utf-8')
          .sendFile('index.html');
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    return reply
      .status(404)
      .send(errorBody(404, `No such API call: ${request.method} ${url}`, request.id));
  });

  return app;
}
