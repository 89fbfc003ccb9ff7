// @vitest-environment jsdom
import { Button } from '@mantine/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { FormAlert } from './form-alert.tsx';
import { useSettledFocus } from './use-settled-focus.ts';

afterEach(cleanup);

/** A form whose Save sends `send` and shows a refusal (an answer that is not ok) as an alert. */
function Form({ send }: { send: () => Promise<Response> }) {
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState(false);
  const { buttonRef, resultRef } = useSettledFocus(pending);
  const save = async () => {
    setPending(true);
    const answer = await send();
    setRefused(!answer.ok);
    setPending(false);
  };
  return (
    <>
      {refused && (
        <FormAlert ref={resultRef} tone="error">
          Refused.
        </FormAlert>
      )}
      <input aria-label="Name" />
      <Button ref={buttonRef} loading={pending} onClick={() => void save()}>
        Save
      </Button>
    </>
  );
}

/** Renders the form and presses Save; `release` then answers it. */
async function pressSave() {
  const held = heldAnswer();
  renderWithProviders(<Form send={held.answer} />);
  const save = screen.getByRole('button', { name: 'Save' });
  await pressAndLoseFocus(save);
  return { save, release: held.release };
}

describe('useSettledFocus', () => {
  dropFocusFromDisabledControls();

  it('puts the focus on the result alert when the request settles with one', async () => {
    const { release } = await pressSave();

    release(jsonResponse(409, {}));

    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });

  it('puts the focus back on the button when the request settles without a result alert', async () => {
    const { save, release } = await pressSave();

    release(jsonResponse(200, {}));

    await waitFor(() => expect(document.activeElement).toBe(save));
  });

  it('leaves the focus where the person put it while the request ran', async () => {
    const { release } = await pressSave();
    const name = screen.getByRole('textbox', { name: 'Name' });
    name.focus();

    release(jsonResponse(409, {}));

    await screen.findByRole('alert');
    expect(document.activeElement).toBe(name);
  });

  it('makes the result alert focusable from script only, out of the Tab order', async () => {
    const { release } = await pressSave();

    release(jsonResponse(409, {}));

    expect((await screen.findByRole('alert')).getAttribute('tabindex')).toBe('-1');
  });
});

describe('useSettledFocus where the busy button keeps the focus (no focus fixup)', () => {
  it('moves the focus from the button to the result alert when the request settles', async () => {
    const held = heldAnswer();
    renderWithProviders(<Form send={held.answer} />);
    const save = screen.getByRole('button', { name: 'Save' });
    save.focus();
    fireEvent.click(save);
    await waitFor(() => expect(save).toHaveProperty('disabled', true));
    expect(document.activeElement).toBe(save);

    held.release(jsonResponse(409, {}));

    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });
});
