import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/**
 * A calm theme. Shade 8 of every palette keeps white text on filled buttons and coloured links
 * on white above the WCAG AA contrast ratio of 4.5:1 (Mantine's default shade 6 falls short).
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  focusRing: 'auto',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
});

/** Mantine's dimmed grey (gray.6, 3.3:1 on white) is too faint for body text; gray.7 is 8:1. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
