import {
  CatalogueCouponSchema,
  CatalogueOfferSchema,
  CataloguePlanSchema,
  type CatalogueCoupon,
  type CatalogueOffer,
  type CataloguePlan,
  type CouponInput,
  type CustomOfferInput,
  type PlanInput,
} from '@ratelens/core';
import { authedRequest } from '../auth/api-client.ts';
import { KEEP_ON_READ, KEEP_ON_WRITE } from './admin-api.ts';

// The administrators' catalogue calls (`/api/admin/plans`, `coupons`, `custom-offers`); money in cents.

export const catalogueKeys = {
  plans: ['admin', 'catalogue', 'plans'] as const,
  coupons: ['admin', 'catalogue', 'coupons'] as const,
  offers: ['admin', 'catalogue', 'offers'] as const,
};

export function listPlans(signal?: AbortSignal): Promise<CataloguePlan[]> {
  return authedRequest('/api/admin/plans', {
    schema: CataloguePlanSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

/** `POST /api/admin/plans`, or `PUT /api/admin/plans/<id>` with an id. */
export function savePlan(input: PlanInput, id: number | null = null): Promise<CataloguePlan> {
  return authedRequest(id === null ? '/api/admin/plans' : `/api/admin/plans/${id}`, {
    method: id === null ? 'POST' : 'PUT',
    body: input,
    schema: CataloguePlanSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

export function listCoupons(signal?: AbortSignal): Promise<CatalogueCoupon[]> {
  return authedRequest('/api/admin/coupons', {
    schema: CatalogueCouponSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

/** `POST /api/admin/coupons`; a 409 (the code exists) carries the server's message. */
export function createCoupon(input: CouponInput): Promise<CatalogueCoupon> {
  return authedRequest('/api/admin/coupons', {
    method: 'POST',
    body: input,
    schema: CatalogueCouponSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

export function deactivateCoupon(id: number): Promise<CatalogueCoupon> {
  return authedRequest(`/api/admin/coupons/${id}/deactivate`, {
    method: 'POST',
    schema: CatalogueCouponSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

export function listOffers(signal?: AbortSignal): Promise<CatalogueOffer[]> {
  return authedRequest('/api/admin/custom-offers', {
    schema: CatalogueOfferSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

export function createOffer(input: CustomOfferInput): Promise<CatalogueOffer> {
  return authedRequest('/api/admin/custom-offers', {
    method: 'POST',
    body: input,
    schema: CatalogueOfferSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

/** `DELETE /api/admin/custom-offers/<id>` (204). */
export async function removeOffer(id: number): Promise<void> {
  await authedRequest(`/api/admin/custom-offers/${id}`, {
    method: 'DELETE',
    keepSessionOn: KEEP_ON_WRITE,
  });
}
