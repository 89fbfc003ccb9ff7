// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { HOME_META, HomeRoute } from './home.tsx';
import { OUR_MISSION_META, OurMissionRoute } from './our-mission.tsx';
import { PARTNERS_META, PartnersRoute } from './partners.tsx';
import { PRIVACY_META, PrivacyPolicyRoute } from './privacy-policy.tsx';
import { PRODUCTS_META, ProductsAndServicesRoute } from './products-and-services.tsx';
import { TERMS_META, TermsConditionsRoute } from './terms-conditions.tsx';
import { USE_CASES_META, UseCasesRoute } from './use-cases.tsx';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(jsonResponse(200, { data: [] }))),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PAGES: [string, ReactElement, { title: string; description: string }][] = [
  ['/ourMission', <OurMissionRoute key="m" />, OUR_MISSION_META],
  ['/productandservices', <ProductsAndServicesRoute key="p" />, PRODUCTS_META],
  ['/useCases', <UseCasesRoute key="u" />, USE_CASES_META],
  ['/partner', <PartnersRoute key="pa" />, PARTNERS_META],
  ['/privacy-policy', <PrivacyPolicyRoute key="pr" />, PRIVACY_META],
  ['/terms-condition', <TermsConditionsRoute key="t" />, TERMS_META],
];

describe.each(PAGES)('%s', (route, page, meta) => {
  it('has one h1 and sets the title and descriptions', () => {
    renderWithProviders(page, { route });

    const headings = screen.getAllByRole('heading', { level: 1 });
    expect(headings).toHaveLength(1);
    expect(headings[0]?.textContent).toBe(meta.title);
    expect(document.title).toBe(`${meta.title} | RateLens`);
    const content = (selector: string) =>
      document.head.querySelector(selector)?.getAttribute('content');
    expect(content('meta[name="description"]')).toBe(meta.description);
    expect(content('meta[property="og:title"]')).toBe(`${meta.title} | RateLens`);
    expect(content('meta[property="og:description"]')).toBe(meta.description);
  });
});

describe('/', () => {
  it('offers the free Alaska file, the popups and the education figures', () => {
    renderWithProviders(<HomeRoute />);

    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(document.title).toBe(HOME_META.title);
    expect(
      screen.getByRole('link', { name: 'Download the Alaska rates (CSV)' }).getAttribute('href'),
    ).toBe('/api/downloads/alaska-rates.csv');
    expect(screen.getByRole('button', { name: 'How to buy low-cost healthcare' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Omega Notes' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Patient Advocate Foundation' })).toBeTruthy();
    expect(screen.getByText('$400 or more')).toBeTruthy();
    expect(screen.getByText('within 120 days')).toBeTruthy();
    expect(screen.getByText('within 9 months of your 65th birthday')).toBeTruthy();
    expect(screen.getByText(/not legal advice/)).toBeTruthy();
  });
});

describe('/privacy-policy', () => {
  it('promises only what the profile offers: account details to see, not to edit', () => {
    renderWithProviders(<PrivacyPolicyRoute />, { route: '/privacy-policy' });

    expect(screen.queryByText(/update your account details on your profile/)).toBeNull();
    expect(
      screen.getByText(
        /You can see your account details .* and your subscriptions on your profile/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(/To change your password, use/)).toBeTruthy();
  });
});
