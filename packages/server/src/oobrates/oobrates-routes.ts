import { PassThrough } from 'node:stream';
import {
  CodeOptionSchema,
  CodeSearchQuerySchema,
  CustomExportQuerySchema,
  CustomSearchInputSchema,
  EmployersAccessBodySchema,
  EmployersAccessSchema,
  EntitlementSchema,
  ExportQuerySchema,
  OopRateRowSchema,
  PlanDesignSchema,
  ReportTypeQuerySchema,
  ResultSchema,
  SearchInputSchema,
  SendPdfBodySchema,
  StatewiseAccessSchema,
  SummaryRowSchema,
} from '@ratelens/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext, AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { tooManyRequests } from '../http/errors.ts';
import { PerKeyLimit } from '../http/per-key-limit.ts';
import { boundToClient } from '../http/stream-limits.ts';
import type { OobRatesService } from './oobrates-service.ts';
import { OWN_ACCOUNT } from '../http/openapi-errors.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * How many searches (and summaries) one user may have running at once: the results page asks
 * for a search and its summary together, and a second tab may be searching too. Each holds a
 * connection for up to the statement timeout.
 */
const SEARCHES_PER_USER = 3;
const SEARCHES_BUSY = `${SEARCHES_PER_USER} of your searches are still running: wait for one to finish, then try again.`;
/** How many exports one user may have being written at once. */
const EXPORTS_PER_USER = 2;
/** An export still being written after this long is ended (its client reads too slowly). */
const EXPORT_MINUTES = 10;
const EXPORTS_BUSY = `${EXPORTS_PER_USER} of your exports are still being written: wait for one to finish, then try again.`;

/** search-and-accounts §7: the rate search calls. All but the billing-class list need a session. */
export const oobRatesRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  oobRates: OobRatesService;
  textRateLimitPerHour: number;
}> = async (app, { auth, oobRates, textRateLimitPerHour }) => {
  /** A search's refusals: its account, or its entitlement (entitlements.ts). */
  const searchRefused = {
    403: 'Another account named, or no search left: `message` says which, and when the next free search is.',
    429: SEARCHES_BUSY,
  };
  const searches = new PerKeyLimit(SEARCHES_PER_USER);
  /** Runs a user's search, refused while SEARCHES_PER_USER of theirs are running. */
  const searching = async <T>(request: FastifyRequest, work: (user: AuthContext) => Promise<T>) => {
    const user = currentUser(request);
    const giveBack = searches.take(user.userId);
    if (!giveBack) throw tooManyRequests(SEARCHES_BUSY);
    try {
      return await work(user);
    } finally {
      giveBack();
    }
  };
  const tags = ['Rate search'];
  const signedIn = requireUser(auth);
  const security = AUTHENTICATED;

  app.get('/OobRates/getoobratesSetting', {
    schema: { tags, summary: 'Billing classes', response: { 200: z.array(z.string()) } },
    handler: () => oobRates.billingClasses(),
  });

  app.get('/OobRates/getPlanDesign', {
    schema: {
      tags,
      summary: 'The plan design out-of-pocket estimates assume (deductible, coinsurance, maximum)',
      response: { 200: PlanDesignSchema },
    },
    handler: () => oobRates.planDesign(),
  });

  app.get('/OobRates/getReportType', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: "The account's search entitlement (first element)",
      querystring: ReportTypeQuerySchema,
      response: { 200: z.array(EntitlementSchema) },
    },
    handler: async (request) => [await oobRates.entitlement(currentUser(request), request.query)],
  });

  app.get('/OobRates/getoobratesStatewiseUserAccess', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'States the account may search: state code → name',
      querystring: z.object({ email: z.string().max(254).optional() }),
      response: { 200: StatewiseAccessSchema },
    },
    handler: (request) => oobRates.states(currentUser(request), request.query.email),
  });

  app.post('/OobRates/getoobratesEmployersAccess', {
    config: { refusals: { 403: OWN_ACCOUNT } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: "Whether the account searches through an employer's access",
      body: EmployersAccessBodySchema,
      response: { 200: EmployersAccessSchema },
    },
    handler: (request) => oobRates.employersAccess(currentUser(request), request.body.accout),
  });

  app.get('/OobRates/GetCodeDescriptionbyMSA', {
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Codes published in a state and metro area, by code or description text',
      querystring: CodeSearchQuerySchema,
      response: { 200: z.array(CodeOptionSchema) },
    },
    handler: (request) => oobRates.codeOptions(request.query.FilterJson),
  });

  app.post('/OobRates/getoobrates', {
    config: { refusals: searchRefused },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Negotiated rates of a code in a metro area (standard report)',
      body: SearchInputSchema,
      response: { 200: z.array(OopRateRowSchema) },
    },
    handler: (request) =>
      searching(request, (user) => oobRates.search(user, request.body, 'standard')),
  });

  app.post('/OobRates/Getoobrateswithcustomvalue', {
    config: { refusals: searchRefused },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Negotiated rates with out-of-pocket for a family status and YTD spend',
      body: CustomSearchInputSchema,
      response: { 200: z.array(OopRateRowSchema) },
    },
    handler: (request) =>
      searching(request, (user) => oobRates.search(user, request.body, 'custom')),
  });

  app.post('/OobRates/getoobratesSummery', {
    config: {
      refusals: {
        403: 'Another account named, or the summary asked for before its search was run.',
        429: SEARCHES_BUSY,
      },
    },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Per hospital: low, average and high rate and cash price of the searched code',
      body: SearchInputSchema,
      response: { 200: z.array(SummaryRowSchema) },
    },
    handler: (request) => searching(request, (user) => oobRates.summary(user, request.body)),
  });

  // Two at once (a second window while the first downloads), not a pool's worth: each export
  // holds a database connection until its client has read it all (RatesSearch.streamRates).
  const exports = new PerKeyLimit(EXPORTS_PER_USER);
  for (const [url, schema, path] of [
    ['/OobRates/exportOobData', ExportQuerySchema, 'standard'],
    ['/OobRates/exportOobDatacustomvalue', CustomExportQuerySchema, 'custom'],
  ] as const) {
    app.get(url, {
      config: { refusals: { 403: searchRefused[403], 429: EXPORTS_BUSY } },
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'The search as an Excel workbook (rates and assumptions)',
        querystring: schema,
        produces: [XLSX],
      },
      handler: async (request, reply) => {
        const input = request.query.oobinput;
        const user = currentUser(request);
        // The place is the writer's: given back when it has finished or failed, not when the
        // client goes (the writer may still hold its database connection then).
        const giveBack = exports.take(user.userId);
        if (!giveBack) throw tooManyRequests(EXPORTS_BUSY);
        let prepared;
        try {
          prepared = await oobRates.prepareExport(user, input, path);
          void reply
            .type(XLSX)
            .header('content-disposition', attachmentDisposition(prepared.fileName))
            .header('cache-control', 'private, no-store');
        } catch (error) {
          giveBack();
          throw error;
        }
        const body = new PassThrough();
        // A client gone must not leave the writer waiting for a drain that never comes; nor may
        // one reading a trickle keep it writing for ever.
        const stopClock = boundToClient(request, reply, body, 'export', EXPORT_MINUTES);
        prepared
          .write(body)
          .catch((error: unknown) => {
            request.log.error({ err: error }, 'spreadsheet export failed');
            body.destroy(error instanceof Error ? error : new Error(String(error)));
          })
          .finally(() => {
            stopClock();
            giveBack();
          });
        return reply.send(body);
      },
    });
  }

  app.get('/OobRates/logIndvsubscount', {
    config: {
      refusals: { 403: 'Another account named, or the account has no individual subscription.' },
    },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary:
        "The individual-search subscription's remaining count (the server counts searches as it runs them)",
      headers: z.object({ userid: z.string().max(64).optional() }),
      response: {
        200: ResultSchema.extend({ remaningSearchCount: z.number().int() }),
      },
    },
    handler: (request) => oobRates.individualCount(currentUser(request), request.headers.userid),
  });

  app.post('/OobRates/sendPdftoUser', {
    onRequest: signedIn,
    config: {
      refusals: {
        ...searchRefused,
        429: `${SEARCHES_BUSY} Or the account has had its texted reports for 24 hours (TEXT_REPORTS_PER_USER_PER_DAY).`,
      },
      rateLimit: { max: textRateLimitPerHour, timeWindow: '1 hour' },
    },
    schema: {
      tags,
      security,
      summary: 'Text a link to a PDF of the search to a US phone number (one SMS, no marketing)',
      body: SendPdfBodySchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => searching(request, (user) => oobRates.textReport(user, request.body)),
  });
};
