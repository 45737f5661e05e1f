/**
 * `@workcell/db/testing`: what tests and benchmarks use of the data layer and the services never do (issue 12):
 * statement cost measurement, synthetic volume and the schema drift check. Lint lets only test and benchmark
 * files import it (eslint.config.mjs).
 */
export { measureQueryCost, type QueryCost } from './query-cost.js';
export { findSchemaDrift, IGNORED_TABLES, REFERENCE_TABLES, SQL_ONLY_INDEXES } from './schema-drift.js';
export { insertSyntheticTags, syntheticTagIdAt } from './synthetic.js';
export { TEAM_WIDE_VIEWER } from './visibility-testing.js';
