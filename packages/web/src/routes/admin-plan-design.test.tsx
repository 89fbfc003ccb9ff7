// @vitest-environment jsdom
import { DEFAULT_PLAN_DESIGN, ROLES, SECRET_KEY_HEADER, type PlanDesign } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AT_DEFAULTS, PLAN_SAVED } from '../features/admin/plan-design-form.tsx';
import { PLAN_MESSAGES } from '../features/admin/plan-design-values.ts';
import { NO_ACCESS_MESSAGE } from '../features/auth/guards.tsx';
import { readSession } from '../features/auth/session.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminPlanDesignRoute } from './admin-plan-design.tsx';

const CUSTOM: PlanDesign = {
  deductible: { single: 2500, family: 5000 },
  outOfPocketMax: { single: 8000, family: 16_000 },
  coinsurance: 0.3,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Call = [string, RequestInit | undefined];

const GET = '/api/OobRates/getPlanDesign';
const PUT = '/api/admin/plan-design';

/** A server holding `initial`; PUT saves the body unless `put` answers otherwise. */
function stubServer(
  initial: PlanDesign,
  answers: { get?: () => Response; put?: () => Response | Promise<Response> } = {},
) {
  let plan = initial;
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === GET) return Promise.resolve(answers.get?.() ?? jsonResponse(200, plan));
    if (url === PUT && method === 'PUT') {
      if (answers.put) return Promise.resolve(answers.put());
      plan = JSON.parse(init?.body as string) as PlanDesign;
      return Promise.resolve(jsonResponse(200, plan));
    }
    return Promise.resolve(jsonResponse(404, {}));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const puts = (fetchMock: ReturnType<typeof stubServer>) =>
  (fetchMock.mock.calls as Call[]).filter(([url]) => url === PUT);

function type(label: RegExp, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

const preview = () => screen.getByRole('region', { name: 'Preview' });

describe('AdminPlanDesignRoute', () => {
  it('fills the form with the current plan, the coinsurance in percent', async () => {
    signInAs(ROLES.admin);
    stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);

    expect(screen.getByRole('heading', { level: 1, name: 'Plan design' })).toBeTruthy();
    expect(await screen.findByLabelText(/^Deductible, single/)).toHaveProperty('value', '2,500');
    expect(screen.getByLabelText(/^Deductible, family/)).toHaveProperty('value', '5,000');
    expect(screen.getByLabelText(/^Out-of-pocket maximum, single/)).toHaveProperty(
      'value',
      '8,000',
    );
    expect(screen.getByLabelText(/^Out-of-pocket maximum, family/)).toHaveProperty(
      'value',
      '16,000',
    );
    expect(screen.getByLabelText(/^Coinsurance/)).toHaveProperty('value', '30');
    expect(screen.queryByText(AT_DEFAULTS)).toBeNull();
  });

  it('previews the assumptions for a single person with $0 spent, live', async () => {
    signInAs(ROLES.admin);
    stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);

    expect(
      within(preview()).getByText(
        /deductible of \$2,500\.00 and an out-of-pocket maximum of \$8,000\.00/,
      ),
    ).toBeTruthy();
    expect(within(preview()).getByText(/you pay 30% of the negotiated rate/)).toBeTruthy();
    expect(within(preview()).getByText(/Your \$0\.00 spent so far this year/)).toBeTruthy();

    type(/^Coinsurance/, '15');
    expect(await within(preview()).findByText(/you pay 15% of the negotiated rate/)).toBeTruthy();
  });

  it('saves the plan with the coinsurance as a share, with the auth headers sent', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);

    type(/^Coinsurance/, '25');
    type(/^Deductible, single/, '3000');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(PLAN_SAVED)).toBeTruthy();
    const [put] = puts(fetchMock);
    expect(put?.[1]?.method).toBe('PUT');
    expect(JSON.parse(put?.[1]?.body as string)).toEqual({
      ...CUSTOM,
      deductible: { single: 3000, family: 5000 },
      coinsurance: 0.25,
    });
    expect(put?.[1]?.headers).toMatchObject({
      Authorization: 'Bearer access-1',
      [SECRET_KEY_HEADER]: 'secret-1',
    });
  });

  it('fills in the 2026 defaults on reset, and sends nothing until Save', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);

    fireEvent.click(screen.getByRole('button', { name: 'Reset to the 2026 defaults' }));

    expect(await screen.findByText(AT_DEFAULTS)).toBeTruthy();
    expect(screen.getByLabelText(/^Deductible, single/)).toHaveProperty('value', '1,700');
    expect(screen.getByLabelText(/^Out-of-pocket maximum, family/)).toHaveProperty(
      'value',
      '21,200',
    );
    expect(screen.getByLabelText(/^Coinsurance/)).toHaveProperty('value', '20');
    expect(puts(fetchMock)).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(PLAN_SAVED);
    expect(JSON.parse(puts(fetchMock)[0]?.[1]?.body as string)).toEqual(DEFAULT_PLAN_DESIGN);
  });

  it('refuses a coinsurance over 100% and an empty amount before sending anything', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);

    type(/^Coinsurance/, '150');
    type(/^Deductible, family/, '');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(PLAN_MESSAGES.percent)).toBeTruthy();
    expect(screen.getByText(PLAN_MESSAGES.dollars)).toBeTruthy();
    expect(screen.getByLabelText(/^Coinsurance/).getAttribute('aria-invalid')).toBe('true');
    expect(
      within(preview()).getByText('The preview shows once every amount is valid.'),
    ).toBeTruthy();
    expect(puts(fetchMock)).toEqual([]);
  });

  it('tells a non-administrator they have no access, without asking the server', () => {
    signInAs(ROLES.webUser);
    const fetchMock = stubServer(CUSTOM);
    renderWithProviders(<AdminPlanDesignRoute />);
    expect(screen.getByRole('alert').textContent).toBe(NO_ACCESS_MESSAGE);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows no access when the server refuses the change, and keeps the session', async () => {
    signInAs(ROLES.admin);
    stubServer(CUSTOM, {
      put: () => forbiddenResponse('Only administrators can change the plan design.'),
    });
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(readSession().token).toBe('access-1');
  });

  it('shows the error of a failed load', async () => {
    signInAs(ROLES.admin);
    stubServer(CUSTOM, {
      get: () =>
        jsonResponse(500, {
          isSuccess: false,
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Something went wrong on our side. Please try again.',
        }),
    });
    renderWithProviders(<AdminPlanDesignRoute />);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Something went wrong on our side. Please try again.',
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull());
  });
});

describe('AdminPlanDesignRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer once the plan is saved, not to the top of the page', async () => {
    signInAs(ROLES.admin);
    const held = heldAnswer();
    stubServer(CUSTOM, { put: held.answer });
    renderWithProviders(<AdminPlanDesignRoute />);
    await screen.findByLabelText(/^Coinsurance/);
    type(/^Coinsurance/, '25');

    await pressAndLoseFocus(screen.getByRole('button', { name: 'Save' }));
    held.release(jsonResponse(200, { ...CUSTOM, coinsurance: 0.25 }));

    const answer = (await screen.findByText(PLAN_SAVED)).closest('[role="status"]');
    await waitFor(() => expect(document.activeElement).toBe(answer));
  });
});
