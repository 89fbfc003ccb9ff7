// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { PartnerGrid } from './partner-grid.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PARTNER = {
  id: 'p1',
  name: 'Example Health Alliance',
  website: 'https://alliance.example.org',
  imageurl: '/api/Partner/logo/p1.png',
  imageWidth: 240,
  imageHeight: 80,
};

describe('PartnerGrid', () => {
  it('links each partner logo with its size, alt text and a safe rel', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { data: [PARTNER] }))),
    );
    renderWithProviders(<PartnerGrid />);

    const logo = await screen.findByRole('img', { name: PARTNER.name });
    expect(logo.getAttribute('width')).toBe('240');
    expect(logo.getAttribute('height')).toBe('80');
    expect(logo.getAttribute('src')).toBe(PARTNER.imageurl);
    const link = logo.closest('a');
    expect(link?.getAttribute('href')).toBe(PARTNER.website);
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows nothing, and no error, when the list cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { container } = renderWithProviders(<PartnerGrid />);

    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.querySelector('ul, a, p')).toBeNull();
  });

  it('says so when there are no partners yet', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { data: [] }))),
    );
    renderWithProviders(<PartnerGrid />);
    expect(await screen.findByText('Our partners will be listed here.')).toBeTruthy();
  });
});
