import { Anchor, Button, type AnchorProps, type ButtonProps } from '@mantine/core';
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
