import {
  HospitalClassificationSchema,
  HospitalIdParamsSchema,
  HospitalLabelsSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { InventoryService } from './inventory-service.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

/** Admin only: what the hospitals' files do not say about them. */
export const inventoryAdminRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  inventory: InventoryService;
}> = async (app, { auth, inventory }) => {
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
};
