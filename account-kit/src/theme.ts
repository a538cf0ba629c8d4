// The account kit's default Mantine theme; hosts pass their own through `<GatehouseProvider theme>`.
// Tuned for WCAG AA contrast (axe runs on every screen): a darker primary shade in light mode and a darker
// "dimmed" text than Mantine's defaults, and field errors in a red that reads on the page (Mantine's red-6 on white
// and red-8 on dark grey are below 4.5:1).
import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const gatehouseTheme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    Anchor: { defaultProps: { underline: 'always' } },
  },
});

export const gatehouseCssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
});
