import { AspectRatio, Box, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Markdown, type MarkdownTree } from './markdown.tsx';

interface DeferredVideoProps {
  title: string;
  /** From configuration (`VITE_…_VIDEO_URL`); empty means there is no video to offer. */
  url: string | undefined;
  /** The written version of the video, always shown. */
  textAlternative: MarkdownTree;
  /** Heading level of the title; the text alternative's headings follow it. */
  headingOrder?: 2 | 3;
}

// The Play button disappears on press: move focus to the player rather than lose it.
const focusOnMount = (element: HTMLElement | null) => element?.focus();

const FILE_VIDEO = /\.(mp4|webm|ogg)(\?|#|$)/i;

/**
 * A video that costs the visitor nothing until they ask for it: before "Play" there is only a
 * local poster, so no request reaches the video host (privacy, and page weight). The written
 * version sits beside it for anyone who cannot or will not watch.
 */
export function DeferredVideo({
  title,
  url,
  textAlternative,
  headingOrder = 2,
}: DeferredVideoProps) {
  const [playing, setPlaying] = useState(false);
  const source = url?.trim() ?? '';

  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={headingOrder}>{title}</Title>
      {source !== '' && (
        <AspectRatio ratio={16 / 9} maw={720}>
          {playing ? (
            FILE_VIDEO.test(source) ? (
              <video ref={focusOnMount} src={source} title={title} controls autoPlay />
            ) : (
              <iframe
                ref={focusOnMount}
                src={source}
                title={title}
                allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
                style={{ border: 0 }}
              />
            )
          ) : (
            <Paper bg="indigo.9" radius="md">
              <Stack align="center" justify="center" h="100%" gap="sm" p="md">
                <Button size="lg" color="white" variant="white" onClick={() => setPlaying(true)}>
                  Play video: {title}
                </Button>
                <Text size="xs" c="indigo.0" ta="center">
                  The video loads from its host only when you press play.
                </Text>
              </Stack>
            </Paper>
          )}
        </AspectRatio>
      )}
      <Box>
        <Markdown headingOffset={headingOrder - 1}>{textAlternative}</Markdown>
      </Box>
    </Stack>
  );
}
