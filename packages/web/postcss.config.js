// Mantine's PostCSS preset: rem/em functions and light/dark mixins in component CSS.
// An ES module (.js): the package is "type": "module", and the lint config type-checks .cjs files.
export default {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
