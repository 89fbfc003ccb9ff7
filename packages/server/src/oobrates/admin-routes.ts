import {
  OrganisationInputSchema,
  OrganisationSchema,
  PlanDesignInputSchema,
  PlanDesignSchema,
  isAdmin,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import { forbidden } from '../http/errors.ts';
import type { Organisations } from './organisations.ts';
import type { RatesSearch } from './rates-search.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

const IdParamsSchema = z.object({ id: z.uuid('id must be an organisation id.') });

/** Admin only: employer organisations and the plan design behind out-of-pocket estimates. */
export const searchAdminRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  organisations: Organisations;
  search: RatesSearch;
}> = async (app, { auth, organisations, search }) => {
  const tags = ['Rate search (admin)'];
  const security = AUTHENTICATED;
  const signedIn = requireUser(auth);

  const emailTaken =
    "An e-mail address is already an organisation's account or another organisation's member.";

  app.get('/admin/organisations', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Employer organisations with their members',
      response: { 200: z.array(OrganisationSchema) },
    },
    handler: (request) => organisations.list(currentUser(request)),
  });

  app.post('/admin/organisations', {
    config: {
      refusals: {
        403: ADMIN_ONLY,
        409: emailTaken,
      },
    },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Add an employer organisation',
      body: OrganisationInputSchema,
      response: { 200: OrganisationSchema },
    },
    handler: (request) => organisations.create(currentUser(request), request.body),
  });

  app.put('/admin/organisations/:id', {
    config: {
      refusals: {
        403: ADMIN_ONLY,
        404: 'No organisation has this id.',
        409: emailTaken,
      },
    },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Change an organisation (its member list is replaced)',
      params: IdParamsSchema,
      body: OrganisationInputSchema,
      response: { 200: OrganisationSchema },
    },
    handler: (request) =>
      organisations.update(currentUser(request), request.params.id, request.body),
  });

  app.delete('/admin/organisations/:id', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No organisation has this id.' } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Remove an organisation',
      params: IdParamsSchema,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await organisations.remove(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  });

  app.put('/admin/plan-design', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: signedIn,
    schema: {
      tags,
      security,
      summary: 'Change the plan design out-of-pocket estimates assume',
      body: PlanDesignInputSchema,
      response: { 200: PlanDesignSchema },
    },
    handler: (request) => {
      const user = currentUser(request);
      if (!isAdmin(user.role)) throw forbidden('Only administrators can change the plan design.');
      return search.setPlanDesign(request.body, user.userId);
    },
  });
};
