// Mantine's PostCSS preset: rem/em functions and light/dark mixins in component CSS.
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
