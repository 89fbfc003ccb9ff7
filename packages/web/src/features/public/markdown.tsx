import { Anchor, List, Text, Title, type MantineSize, type TitleOrder } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';

interface MarkdownProps {
  /** Markdown text from `src/content/`. Raw HTML in it is dropped, never rendered. */
  children: string;
  /**
   * Levels added to every heading. Content files start their sections at `##` (h2, under the
   * page's h1); inside a dialog titled at h2 they need to start at h3, so the dialog passes 1.
   */
  headingOffset?: number;
  size?: MantineSize;
}

function headingOrder(level: number, offset: number): TitleOrder {
  return Math.min(6, Math.max(1, level + offset)) as TitleOrder;
}

/** External links leave the app; paths inside it go through the router. */
function MarkdownLink({ href, children }: { href?: string | undefined; children?: ReactNode }) {
  if (href?.startsWith('/') && !href.startsWith('/api/')) {
    return (
      <Anchor component={Link} to={href}>
        {children}
      </Anchor>
    );
  }
  return (
    <Anchor href={href} rel="noopener noreferrer">
      {children}
    </Anchor>
  );
}

function components(headingOffset: number, size: MantineSize): Components {
  const heading = (level: number) =>
    function MarkdownHeading({ children }: { children?: ReactNode }) {
      const order = headingOrder(level, headingOffset);
      return (
        <Title order={order} size={`h${Math.min(6, order + 1)}`} mt="md" mb="xs">
          {children}
        </Title>
      );
    };
  return {
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
    p: ({ children }) => (
      <Text size={size} mb="sm">
        {children}
      </Text>
    ),
    ul: ({ children }) => (
      <List size={size} spacing={4} mb="sm" withPadding>
        {children}
      </List>
    ),
    ol: ({ children }) => (
      <List type="ordered" size={size} spacing={4} mb="sm" withPadding>
        {children}
      </List>
    ),
    li: ({ children }) => <List.Item>{children}</List.Item>,
    a: ({ href, children }) => <MarkdownLink href={href}>{children}</MarkdownLink>,
  };
}

/**
 * Renders the editors' Markdown with Mantine's type. react-markdown builds React elements (no
 * innerHTML), `skipHtml` drops any HTML written in the file, and its URL filter drops
 * `javascript:` links.
 */
export function Markdown({ children, headingOffset = 0, size = 'md' }: MarkdownProps) {
  // Stable component types: new ones on every render would remount the whole text.
  const mapped = useMemo(() => components(headingOffset, size), [headingOffset, size]);
  return (
    <div>
      <ReactMarkdown skipHtml components={mapped}>
        {children}
      </ReactMarkdown>
    </div>
  );
}
