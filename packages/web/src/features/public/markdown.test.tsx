// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { Markdown } from './markdown.tsx';
import { parseUseCase } from './use-cases.ts';

afterEach(cleanup);

describe('Markdown', () => {
  it('drops raw HTML written in a content file', () => {
    const { container } = renderWithProviders(
      <Markdown>
        {'Safe text.\n\n<img src=x onerror="alert(1)">\n\n<script>alert(1)</script>'}
      </Markdown>,
    );
    expect(screen.getByText('Safe text.')).toBeTruthy();
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('shifts headings by the offset it is given', () => {
    renderWithProviders(<Markdown headingOffset={1}>{'## Example uses'}</Markdown>);
    expect(screen.getByRole('heading', { level: 3, name: 'Example uses' })).toBeTruthy();
  });

  it('routes app paths inside the app and keeps external links safe', () => {
    renderWithProviders(
      <Markdown>{'[Mission](/ourMission) and [PAF](https://example.org)'}</Markdown>,
    );
    expect(screen.getByRole('link', { name: 'Mission' }).getAttribute('href')).toBe('/ourMission');
    expect(screen.getByRole('link', { name: 'PAF' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
  });
});

describe('parseUseCase', () => {
  it('splits a file into title, card summary and dialog details', () => {
    expect(parseUseCase('x', '# Employers\n\nFor employers.\n\n## Example uses\n\n- One')).toEqual({
      id: 'x',
      title: 'Employers',
      summary: 'For employers.',
      details: '## Example uses\n\n- One',
    });
  });
});
