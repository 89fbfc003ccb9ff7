import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsync } from 'fastify';
import type { AuthService } from '../auth/auth-service.ts';
import type { Mailer } from '../mail/mailer.ts';
import { Catalogue } from './catalogue.ts';
import { CatalogueAdmin } from './catalogue-admin.ts';
import { catalogueAdminRoutes } from './catalogue-admin-routes.ts';
import { MySubscriptions } from './my-subscriptions.ts';
import { PlanLeads } from './plan-leads.ts';
import { subscriptionsRoutes } from './subscriptions-routes.ts';

export interface SubscriptionsAreaOptions {
  auth: AuthService;
  pool: Pool;
  mailer: Mailer;
  teamEmail: string;
  rateLimitPerMinute: number;
}

/** The catalogue area's services and calls, registered by app.ts in one line. */
export const subscriptionsArea: FastifyPluginAsync<SubscriptionsAreaOptions> = async (
  app,
  { auth, pool, mailer, teamEmail, rateLimitPerMinute },
) => {
  const admin = new CatalogueAdmin(pool);
  await app.register(subscriptionsRoutes, {
    auth,
    catalogue: new Catalogue(pool),
    admin,
    mySubscriptions: new MySubscriptions(pool),
    planLeads: new PlanLeads({ pool, mailer, teamEmail }),
    rateLimitPerMinute,
  });
  await app.register(catalogueAdminRoutes, { auth, admin });
};
