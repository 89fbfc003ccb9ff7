import {
  HospitalDetailSchema,
  HospitalFilterQuerySchema,
  HospitalIdParamsSchema,
  HospitalItemSchema,
  InventoryRowSchema,
  MsaByStateCodeQuerySchema,
  MsaByStateNameQuerySchema,
  MsaItemSchema,
  StateItemSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LARGE_ANSWER } from '../http/compression.ts';
import type { InventoryService } from './inventory-service.ts';

/**
 * Public reads: the inventory list is in the spec's signed-out navigation (search-and-accounts
 * §2), and its selectors' calls take no auth (subscriptions-and-payments §7). ADR 0011.
 */
export const inventoryRoutes: FastifyPluginAsyncZod<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  const tags = ['Inventory'];

  app.get('/master/getallstates', {
    schema: {
      tags,
      summary: 'States, sorted by name',
      response: { 200: z.array(StateItemSchema) },
    },
    handler: () => inventory.states(),
  });

  app.get('/Subscription/getmsafilter', {
    schema: {
      tags,
      summary: 'Metro areas (CBSAs) of a state that have hospitals',
      querystring: MsaByStateCodeQuerySchema,
      response: { 200: z.array(MsaItemSchema) },
    },
    handler: (request) => inventory.msasByStateCode(request.query.stateCode),
  });

  app.get('/inventory/getmsabystatename', {
    schema: {
      tags,
      summary: 'Metro areas of a state, by state name',
      querystring: MsaByStateNameQuerySchema,
      response: { 200: z.array(MsaItemSchema) },
    },
    handler: (request) => inventory.msasByStateName(request.query.state),
  });

  app.get('/Inventory/getHospitalbyFilter', {
    compress: LARGE_ANSWER,
    schema: {
      tags,
      summary: 'Hospitals of a state and metro area',
      querystring: HospitalFilterQuerySchema,
      response: { 200: z.array(HospitalItemSchema) },
    },
    handler: (request) => inventory.hospitals(request.query.FilterJson),
  });

  app.get('/Inventory/InventoryListings', {
    compress: LARGE_ANSWER,
    schema: {
      tags,
      summary: 'Every hospital with the kinds of rates its file holds',
      response: { 200: z.array(InventoryRowSchema) },
    },
    handler: () => inventory.listings(),
  });

  app.get('/Inventory/hospital/:hospitalId', {
    config: { refusals: { 404: 'No hospital has this id.' } },
    compress: LARGE_ANSWER,
    schema: {
      tags,
      summary: 'A hospital with its files, CMS versions and validation summaries',
      params: HospitalIdParamsSchema,
      response: { 200: HospitalDetailSchema },
    },
    handler: (request) => inventory.hospital(request.params.hospitalId),
  });
};
