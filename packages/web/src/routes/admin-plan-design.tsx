import { Text } from '@mantine/core';
import { isAdmin } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { adminErrorMessage } from '../features/admin/admin-api.ts';
import { PlanDesignForm } from '../features/admin/plan-design-form.tsx';
import { NO_ACCESS_MESSAGE, RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { getPlanDesign } from '../features/search/search-api.ts';
import { searchKeys } from '../features/search/search-queries.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const PLAN_DESIGN_META = {
  title: 'Plan design',
  description:
    'The deductible, out-of-pocket maximum and coinsurance out-of-pocket estimates assume.',
};

/**
 * The plan design behind every out-of-pocket estimate (issue 4: defaults are the 2026 limits, an
 * admin can change them). The plan is public (`GET /api/OobRates/getPlanDesign`), so access is
 * decided from the session's role; the server refuses the change to anyone else (403) all the same.
 */
export function AdminPlanDesignRoute() {
  usePageMeta(PLAN_DESIGN_META);
  return (
    <RequireToken>
      <Page title={PLAN_DESIGN_META.title} size="sm">
        <AdminPlanDesign />
      </Page>
    </RequireToken>
  );
}

function AdminPlanDesign() {
  const session = useSession();
  const admin = isAdmin(session.role);
  const plan = useQuery({
    queryKey: searchKeys.planDesign(),
    queryFn: getPlanDesign,
    enabled: admin,
    // The results screen keeps the plan for the page's life; the admin edits the current one.
    staleTime: 0,
  });

  if (!admin) return <FormAlert tone="error">{NO_ACCESS_MESSAGE}</FormAlert>;
  if (plan.isPending) return <PageLoader label="Loading the plan design…" />;
  if (plan.isError) return <FormAlert tone="error">{adminErrorMessage(plan.error)}</FormAlert>;
  return (
    <>
      <Text>
        Every out-of-pocket estimate assumes this plan, and the results state it. Changes apply to
        the next search.
      </Text>
      <PlanDesignForm initial={plan.data} />
    </>
  );
}
