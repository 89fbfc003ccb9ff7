import {
  FailingFileSchema,
  HospitalClassificationSchema,
  HospitalIdParamsSchema,
  HospitalLabelsSchema,
  HospitalRefreshSchema,
  RefreshStatusSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { InventoryService } from './inventory-service.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

/** Admin only: what the hospitals' files do not say about them, and how reading them goes. */
export const inventoryAdminRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  inventory: InventoryService;
}> = async (app, { auth, inventory }) => {
  app.get('/admin/files/failing', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: requireUser(auth),
    schema: {
      tags: ['Inventory (admin)'],
      security: AUTHENTICATED,
      summary:
        'The hospitals whose latest read of their file failed, the longest failing first, with why',
      response: { 200: FailingFileSchema.array() },
    },
    handler: (request) => inventory.failingFiles(currentUser(request)),
  });

  app.get('/admin/refresh', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: requireUser(auth),
    schema: {
      tags: ['Inventory (admin)'],
      security: AUTHENTICATED,
      summary:
        "The daily refresh of the hospitals' files: whether a worker runs it, when it is next due, how the latest ended, and the requests for one hospital's file waiting or being read",
      response: { 200: RefreshStatusSchema },
    },
    handler: (request) => inventory.refreshStatus(currentUser(request)),
  });

  app.put('/admin/hospitals/:hospitalId/classification', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No hospital has this id.' } },
    onRequest: requireUser(auth),
    schema: {
      tags: ['Inventory (admin)'],
      security: AUTHENTICATED,
      summary:
        "Set a hospital's type and health-system labels (the rate search's HospitalType, healthsystemType)",
      params: HospitalIdParamsSchema,
      body: HospitalClassificationSchema,
      response: { 200: HospitalLabelsSchema },
    },
    handler: (request) =>
      inventory.classifyHospital(currentUser(request), request.params.hospitalId, request.body),
  });

  app.post('/admin/hospitals/:hospitalId/refresh', {
    config: {
      refusals: {
        403: ADMIN_ONLY,
        404: 'No hospital has this id.',
        409: 'A demo hospital, one with no file in use, or one whose file was read from a local path that has gone: there is nothing to read again.',
      },
    },
    onRequest: requireUser(auth),
    schema: {
      tags: ['Inventory (admin)'],
      security: AUTHENTICATED,
      summary:
        "Ask the background worker to read a hospital's file again where it came from, and load it if it changed",
      params: HospitalIdParamsSchema,
      response: { 202: HospitalRefreshSchema },
    },
    handler: async (request, reply) => {
      const asked = await inventory.refreshHospital(
        currentUser(request),
        request.params.hospitalId,
      );
      return reply.code(202).send(asked);
    },
  });
};
