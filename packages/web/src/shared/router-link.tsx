import { Anchor, Button, VisuallyHidden, type AnchorProps, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface LinkProps {
  to: string;
  children: ReactNode;
  onClick?: () => void;
}

/** A Mantine anchor that navigates inside the app. */
export function AnchorLink({ to, children, ...props }: LinkProps & AnchorProps) {
  return (
    <Anchor component={Link} to={to} {...props}>
      {children}
    </Anchor>
  );
}

/** A link styled as a button (a link, for screen readers: it goes somewhere). */
export function ButtonLink({ to, children, ...props }: LinkProps & ButtonProps) {
  return (
    <Button component={Link} to={to} {...props}>
      {children}
    </Button>
  );
}

/**
 * A link to another site, opened in a new tab: without the opener, and saying so to screen
 * readers.
 */
export function NewTabLink({
  href,
  children,
  ...props
}: { href: string; children: ReactNode } & AnchorProps) {
  return (
    <Anchor href={href} rel="noopener noreferrer" target="_blank" {...props}>
      {children}
      <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}
