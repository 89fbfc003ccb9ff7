import {
  CatalogueCouponSchema,
  CatalogueIdParamsSchema,
  CatalogueOfferSchema,
  CataloguePlanSchema,
  CouponInputSchema,
  CustomOfferInputSchema,
  PlanInputSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import type { CatalogueAdmin } from './catalogue-admin.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

/** Admin only (checked in CatalogueAdmin): the plans, coupons and custom offers of /admin/catalogue. */
export const catalogueAdminRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  admin: CatalogueAdmin;
}> = async (app, { auth, admin }) => {
  const tags = ['Catalogue (admin)'];
  const security = AUTHENTICATED;
  const onRequest = requireUser(auth);
  const params = CatalogueIdParamsSchema;

  app.get('/admin/plans', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Every plan, offered or not, in catalogue order',
      response: { 200: z.array(CataloguePlanSchema) },
    },
    handler: (request) => admin.plans(currentUser(request)),
  });

  app.post('/admin/plans', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Add a plan (money in cents)',
      body: PlanInputSchema,
      response: { 200: CataloguePlanSchema },
    },
    handler: (request) => admin.createPlan(currentUser(request), request.body),
  });

  app.put('/admin/plans/:id', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No plan has this id.' } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Change a plan; subscriptions already bought are not repriced',
      params,
      body: PlanInputSchema,
      response: { 200: CataloguePlanSchema },
    },
    handler: (request) => admin.updatePlan(currentUser(request), request.params.id, request.body),
  });

  app.get('/admin/coupons', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Every coupon with the paid orders that used it',
      response: { 200: z.array(CatalogueCouponSchema) },
    },
    handler: (request) => admin.coupons(currentUser(request)),
  });

  app.post('/admin/coupons', {
    config: { refusals: { 403: ADMIN_ONLY, 409: 'A coupon has this code already.' } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Add a coupon (a percentage off annual items)',
      body: CouponInputSchema,
      response: { 200: CatalogueCouponSchema },
    },
    handler: (request) => admin.createCoupon(currentUser(request), request.body),
  });

  app.put('/admin/coupons/:id', {
    config: {
      refusals: {
        403: ADMIN_ONLY,
        404: 'No coupon has this id.',
        409: 'A coupon has this code already.',
      },
    },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Change a coupon',
      params,
      body: CouponInputSchema,
      response: { 200: CatalogueCouponSchema },
    },
    handler: (request) => admin.updateCoupon(currentUser(request), request.params.id, request.body),
  });

  app.post('/admin/coupons/:id/deactivate', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No coupon has this id.' } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Stop a coupon applying (kept: paid orders name it)',
      params,
      response: { 200: CatalogueCouponSchema },
    },
    handler: (request) => admin.deactivateCoupon(currentUser(request), request.params.id),
  });

  app.get('/admin/custom-offers', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Every custom offer, newest first',
      response: { 200: z.array(CatalogueOfferSchema) },
    },
    handler: (request) => admin.offers(currentUser(request)),
  });

  app.post('/admin/custom-offers', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Offer an account (by e-mail) a price for a plan',
      body: CustomOfferInputSchema,
      response: { 200: CatalogueOfferSchema },
    },
    handler: (request) => admin.createOffer(currentUser(request), request.body),
  });

  app.delete('/admin/custom-offers/:id', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No custom offer has this id.' } },
    onRequest,
    schema: {
      tags,
      security,
      summary: 'Withdraw a custom offer (one with an order is expired instead of deleted)',
      params,
      response: { 204: z.null() },
    },
    handler: async (request, reply) => {
      await admin.removeOffer(currentUser(request), request.params.id);
      return reply.status(204).send(null);
    },
  });
};
