import { normaliseEmail, type Result } from '@ratelens/core';
import type { Pool } from '@ratelens/db';
import type { Mailer } from '../mail/mailer.ts';
import { planLeadNotification } from '../mail/templates.ts';

export const PLAN_LEAD_THANKS = 'Thank you. We will be in touch soon.';

export interface PlanLeadsDeps {
  pool: Pool;
  mailer: Mailer;
  teamEmail: string;
}

/**
 * Names and e-mails left in the popup of the public plans page (subscriptions-and-payments §2
 * "Subscription view"): kept, then mailed to the team. A mail failure is logged, not answered —
 * the popup closes either way (§8) and the lead is already stored.
 */
export class PlanLeads {
  constructor(private readonly deps: PlanLeadsDeps) {}

  async save(
    lead: { name: string; email: string },
    log: { error: (detail: object, message: string) => void },
  ): Promise<Result> {
    const { rows } = await this.deps.pool.query<{ id: string; createdAt: Date }>(
      `INSERT INTO plan_leads (name, email) VALUES ($1, $2) RETURNING id, created_at AS "createdAt"`,
      [lead.name, normaliseEmail(lead.email)],
    );
    const stored = rows[0];
    if (!stored) throw new Error('plan lead not stored');
    try {
      await this.deps.mailer.send(
        planLeadNotification(this.deps.teamEmail, {
          name: lead.name,
          email: normaliseEmail(lead.email),
          receivedAt: stored.createdAt,
        }),
      );
    } catch (error) {
      log.error({ err: error, planLeadId: stored.id }, 'could not notify the team of a plan lead');
    }
    return { isSuccess: true, message: PLAN_LEAD_THANKS };
  }
}
