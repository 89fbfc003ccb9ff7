// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { compileMarkdown } from '../../../build/markdown.ts';
import { renderWithProviders } from '../../test/render.tsx';
import { DeferredVideo } from './deferred-video.tsx';

afterEach(cleanup);

const EMBED = 'https://video.example.com/embed/abc';

describe('DeferredVideo', () => {
  it('renders no iframe or video before play, and the player after it', () => {
    const { container } = renderWithProviders(
      <DeferredVideo
        title="How to use RateLens"
        url={EMBED}
        textAlternative={compileMarkdown('Step one.')}
      />,
    );
    expect(container.querySelector('iframe, video')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Play video: How to use RateLens' }));

    const frame = container.querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe(EMBED);
    expect(frame?.getAttribute('title')).toBe('How to use RateLens');
  });

  it('plays a video file in a video element', () => {
    const { container } = renderWithProviders(
      <DeferredVideo
        title="Intro"
        url="/media/intro.mp4"
        textAlternative={compileMarkdown('Text.')}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Play video: Intro' }));
    expect(container.querySelector('video')?.getAttribute('src')).toBe('/media/intro.mp4');
  });

  it('shows only the written version when no URL is configured', () => {
    renderWithProviders(
      <DeferredVideo title="Intro" url="" textAlternative={compileMarkdown('Step one.')} />,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText('Step one.')).toBeTruthy();
  });
});
