// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { USE_CASES } from '../features/public/use-cases.ts';
import { UseCasesRoute, WHY_TRANSPARENCY_TITLE } from './use-cases.tsx';

afterEach(cleanup);

describe('UseCasesRoute', () => {
  it('has a card for each audience of the spec', () => {
    renderWithProviders(<UseCasesRoute />, { route: '/useCases' });
    for (const title of [
      'Employer groups',
      'Health insurance companies',
      'Benefit companies',
      'Doctors and hospitals',
      'Data for members',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    }
    expect(USE_CASES).toHaveLength(5);
  });

  it("opens a card's dialog with its example uses", async () => {
    renderWithProviders(<UseCasesRoute />, { route: '/useCases' });

    fireEvent.click(screen.getByRole('button', { name: 'Example uses: Employer groups' }));

    const dialog = await screen.findByRole('dialog', { name: 'Employer groups' });
    expect(within(dialog).getByRole('heading', { name: 'Example uses' })).toBeTruthy();
    expect(within(dialog).getByText(/fiduciary duty/)).toBeTruthy();
  });

  it('carries the price-transparency video section and the Use of Rates text', () => {
    renderWithProviders(<UseCasesRoute />, { route: '/useCases' });
    expect(screen.getByRole('heading', { name: WHY_TRANSPARENCY_TITLE })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Use of Rates' })).toBeTruthy();
  });
});
