// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { compileMarkdown, safeUrl } from '../../../build/markdown.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { Markdown } from './markdown.tsx';
import { parseUseCase } from './use-cases.ts';

afterEach(cleanup);

describe('Markdown', () => {
  it('drops raw HTML written in a content file', () => {
    const { container } = renderWithProviders(
      <Markdown>
        {compileMarkdown(
          'Safe text.\n\n<img src=x onerror="alert(1)">\n\n<script>alert(1)</script>',
        )}
      </Markdown>,
    );
    expect(screen.getByText('Safe text.')).toBeTruthy();
    expect(container.querySelector('img, script')).toBeNull();
  });

  it('shifts headings by the offset it is given', () => {
    renderWithProviders(
      <Markdown headingOffset={1}>{compileMarkdown('## Example uses')}</Markdown>,
    );
    expect(screen.getByRole('heading', { level: 3, name: 'Example uses' })).toBeTruthy();
  });

  it('routes app paths inside the app and keeps external links safe', () => {
    renderWithProviders(
      <Markdown>
        {compileMarkdown('[Mission](/ourMission) and [PAF](https://example.org)')}
      </Markdown>,
    );
    expect(screen.getByRole('link', { name: 'Mission' }).getAttribute('href')).toBe('/ourMission');
    expect(screen.getByRole('link', { name: 'PAF' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
  });
});

describe('compileMarkdown', () => {
  it('keeps safe link targets and empties javascript: and data: ones', () => {
    expect(safeUrl('https://example.org/a?b=c:d')).toBe('https://example.org/a?b=c:d');
    expect(safeUrl('mailto:help@example.org')).toBe('mailto:help@example.org');
    expect(safeUrl('/ourMission#team:1')).toBe('/ourMission#team:1');
    expect(safeUrl('JavaScript:alert(1)')).toBe('');
    expect(safeUrl('data:text/html,<script>')).toBe('');
  });

  it('leaves no unsafe link and no source positions in the tree', () => {
    const tree = compileMarkdown('[bad](javascript:alert(1)) [good](/home)');
    const json = JSON.stringify(tree);
    expect(json).not.toContain('javascript');
    expect(json).not.toContain('position');
    expect(json).toContain('"href":"/home"');
  });
});

describe('parseUseCase', () => {
  it('splits a file into title, card summary and dialog details', () => {
    const useCase = parseUseCase(
      'x',
      compileMarkdown('# Employers\n\nFor employers.\n\n## Example uses\n\n- One'),
    );
    expect(useCase.title).toBe('Employers');
    const tags = (tree: typeof useCase.summary) =>
      tree.children.flatMap((node) => (node.type === 'element' ? [node.tagName] : []));
    expect(tags(useCase.summary)).toEqual(['p']);
    expect(tags(useCase.details)).toEqual(['h2', 'ul']);
  });

  it('fails loudly on a file without a title line', () => {
    expect(() => parseUseCase('y', compileMarkdown('Just text.'))).toThrow(
      'Use case y: the file must start with "# Title".',
    );
  });
});
