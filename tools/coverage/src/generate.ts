import { writeFileSync } from 'node:fs';
import { loadConfigOrExit } from '@workcell/config';
import { COVERAGE_DIRECTORY, measureCoverage, renderCoverage } from './coverage.js';

const config = loadConfigOrExit({ LOG_LEVEL: 'silent' });
const files = renderCoverage(await measureCoverage(config));
writeFileSync(new URL('coverage.json', COVERAGE_DIRECTORY), files.json);
writeFileSync(new URL('coverage.md', COVERAGE_DIRECTORY), files.markdown);
process.stdout.write(`wrote ${new URL('coverage.md', COVERAGE_DIRECTORY).pathname}\n`);
