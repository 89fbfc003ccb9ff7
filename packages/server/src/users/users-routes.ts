import { UserDetailsQuerySchema, UserDetailsSchema, UserListItemSchema } from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { UsersService } from './users-service.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

export const usersRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  users: UsersService;
}> = async (app, { auth, users }) => {
  const tags = ['Users'];
  app.addHook('onRequest', requireUser(auth));

  app.get('/user/getUserDetails', {
    config: {
      refusals: {
        403: "Another account's details, asked by someone not an administrator.",
        404: 'No account has this e-mail address.',
      },
    },
    schema: {
      tags,
      summary: "The signed-in user's details (an admin may ask for anyone's)",
      security: AUTHENTICATED,
      querystring: UserDetailsQuerySchema,
      response: { 200: UserDetailsSchema },
    },
    handler: (request) => users.details(currentUser(request), request.query.UserInput),
  });

  app.get('/user/getusers', {
    config: { refusals: { 403: ADMIN_ONLY } },
    schema: {
      tags,
      summary: 'Every account (admin only)',
      security: AUTHENTICATED,
      response: { 200: z.array(UserListItemSchema) },
    },
    handler: (request) => users.list(currentUser(request)),
  });
};
