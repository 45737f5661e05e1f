import { parseArgs } from 'node:util';
import { KEYSET_MAX_RATIO, measureKeysetPagination } from './keyset-pagination.bench.js';

/**
 * The keyset deep-page benchmark alone (`npm run bench` runs it as one row of the whole benchmark):
 * `node tools/bench/dist/pagination.bench.js --rows 100000 --rounds 100`. Fails when the deep page costs more
 * than KEYSET_MAX_RATIO times the first.
 */

const { values } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '200' } } });
const ROWS = Number(values.rows);
const ROUNDS = Number(values.rounds);

const result = await measureKeysetPagination(ROWS, ROUNDS, (line) => console.log(line));
console.log(JSON.stringify({ benchmark: 'listTags deep page vs first page', rows: ROWS, rounds: ROUNDS, ...result }, null, 2));
if (result.ratio > KEYSET_MAX_RATIO) {
  console.error(`the page after row ${ROWS - 1000} costs ${result.ratio.toFixed(2)}× the first (limit ${KEYSET_MAX_RATIO}×)`);
  process.exitCode = 1;
}
