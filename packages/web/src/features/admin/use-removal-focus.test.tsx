// @vitest-environment jsdom
import { Button } from '@mantine/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FormAlert } from '../../shared/form-alert.tsx';
import { dropFocusFromDisabledControls, heldAnswer } from '../../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { useRemovalFocus } from './use-removal-focus.ts';

afterEach(cleanup);

/** One row whose Remove button goes with it once `send` is answered ok, leaving a notice. */
function List({ send }: { send: () => Promise<Response> }) {
  const [present, setPresent] = useState(true);
  const [pending, setPending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const { noticeRef, focusNotice } = useRemovalFocus();
  const remove = async () => {
    setPending(true);
    const answer = await send();
    setPending(false);
    if (!answer.ok) return;
    setPresent(false);
    setNotice('Acme was removed.');
    focusNotice();
  };
  return (
    <>
      {notice !== null && (
        <FormAlert ref={noticeRef} tone="success">
          {notice}
        </FormAlert>
      )}
      <input aria-label="Search" />
      {present && (
        <Button loading={pending} onClick={() => void remove()}>
          Remove Acme
        </Button>
      )}
    </>
  );
}

async function pressRemove() {
  const held = heldAnswer();
  renderWithProviders(<List send={held.answer} />);
  const button = screen.getByRole('button', { name: 'Remove Acme' });
  button.focus();
  fireEvent.click(button);
  await waitFor(() => expect(button).toHaveProperty('disabled', true));
  return held.release;
}

describe('useRemovalFocus', () => {
  dropFocusFromDisabledControls();

  it('puts the focus on the notice, announced as a status, when the removed button took it', async () => {
    const release = await pressRemove();
    expect(document.activeElement).toBe(document.body);

    release(jsonResponse(200, {}));

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe('Acme was removed.');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(screen.queryByRole('button', { name: 'Remove Acme' })).toBeNull();
  });

  it('leaves the focus where the person put it while the removal ran', async () => {
    const release = await pressRemove();
    const search = screen.getByRole('textbox', { name: 'Search' });
    search.focus();

    release(jsonResponse(200, {}));

    await screen.findByRole('status');
    expect(document.activeElement).toBe(search);
  });

  it('moves nothing when the removal is refused', async () => {
    const release = await pressRemove();

    release(jsonResponse(409, {}));

    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Remove Acme' })).toHaveProperty('disabled', false),
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(document.activeElement).toBe(document.body);
  });
});
