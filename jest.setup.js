// Stack traces of failing tests point at the TypeScript sources (tsc writes source maps next to dist/).
process.setSourceMapsEnabled(true);
