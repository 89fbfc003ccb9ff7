import { Container, Stack, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

interface PageProps {
  /** The page's one h1, also used for the document title. */
  title: string;
  children: ReactNode;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
}

/** The frame of a screen: its heading, its document title, and a readable width. */
export function Page({ title, children, size = 'sm' }: PageProps) {
  useEffect(() => {
    document.title = `${title} | RateLens`;
  }, [title]);

  return (
    <Container size={size} py="xl">
      <Stack gap="lg">
        {/* A name of one long word (a file's, a hospital's) wraps rather than widen the page. */}
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {children}
      </Stack>
    </Container>
  );
}
