// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { DonateButton } from './donate-button.tsx';

vi.mock('../../shared/bot-check.tsx', () => import('../../test/bot-check.tsx'));

afterEach(() => cleanup());

describe('DonateButton', () => {
  it('opens the donation dialog with the focus in its e-mail field', async () => {
    renderWithProviders(<DonateButton />);

    fireEvent.click(screen.getByRole('button', { name: 'Donate' }));

    const email = await screen.findByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(document.activeElement).toBe(email));
  });
});
