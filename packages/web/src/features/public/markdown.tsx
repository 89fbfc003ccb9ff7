import { Anchor, List, Text, Title, type MantineSize, type TitleOrder } from '@mantine/core';
import type { Root } from 'hast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { useMemo, type ComponentType, type ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { Link } from 'react-router';

/** A content file compiled at build time (`./file.md?tree`, build/markdown.ts). */
export type MarkdownTree = Root;

interface MarkdownProps {
  /** Content from `src/content/`, compiled at build time; its raw HTML was dropped there. */
  children: MarkdownTree;
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

interface ChildrenProps {
  children?: ReactNode;
}

/** The elements drawn with Mantine's components; every other element stays as it is. */
type MarkdownComponents = Record<string, ComponentType<ChildrenProps & { href?: string }>>;

function components(headingOffset: number, size: MantineSize): MarkdownComponents {
  const heading = (level: number) =>
    function MarkdownHeading({ children }: ChildrenProps) {
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
    p: ({ children }: ChildrenProps) => (
      <Text size={size} mb="sm">
        {children}
      </Text>
    ),
    ul: ({ children }: ChildrenProps) => (
      <List size={size} spacing={4} mb="sm" withPadding>
        {children}
      </List>
    ),
    ol: ({ children }: ChildrenProps) => (
      <List type="ordered" size={size} spacing={4} mb="sm" withPadding>
        {children}
      </List>
    ),
    li: ({ children }: ChildrenProps) => <List.Item>{children}</List.Item>,
    a: ({ href, children }: ChildrenProps & { href?: string }) => (
      <MarkdownLink href={href}>{children}</MarkdownLink>
    ),
  };
}

/**
 * Renders the editors' Markdown with Mantine's type, as React elements (no innerHTML). The tree
 * was compiled at build time, which dropped any HTML written in the file and `javascript:` links.
 */
export function Markdown({ children, headingOffset = 0, size = 'md' }: MarkdownProps) {
  // Stable component types: new ones on every render would remount the whole text.
  const mapped = useMemo(() => components(headingOffset, size), [headingOffset, size]);
  return (
    <div>
      {toJsxRuntime(children, {
        Fragment,
        jsx,
        jsxs,
        components: mapped,
        ignoreInvalidStyle: true,
        passKeys: true,
      })}
    </div>
  );
}
