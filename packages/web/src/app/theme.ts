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
  components: {
    // Dialog headers as <div>: a <header> at the top of <body> (where dialogs are portalled)
    // would be a second "banner" landmark besides the site header.
    ModalHeader: { defaultProps: { component: 'div' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Typing in a searchable select marks its first match, so Enter chooses it ("ala", Enter:
    // Alabama), as in a native <select>; Mantine marks none, and Enter did nothing.
    Select: { defaultProps: { selectFirstOptionOnChange: true } },
  },
});

/**
 * Light-scheme colours that Mantine leaves below 4.5:1 on white: dimmed text (gray.6, 3.3:1,
 * now gray.7, 8:1), error text (red.6, 3.3:1, now red.8, 4.5:1) and placeholders (gray.5).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    // Placeholders Mantine draws as text (the file picker's) are checked for contrast too.
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
