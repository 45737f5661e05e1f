import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import startHarnessModes from '../../jest.global-setup.js';

/**
 * The e2e run records every distinct statement its services send (DATABASE_STATEMENT_LOG, libs/db statement-log.ts)
 * into statement-log/, afresh each run; tools/statement-check then checks them for Citus (docs/scale-out.md). The
 * test processes inherit the variable and the harness hands it to every service it boots (libs/testing testConfig).
 * This project's global setup replaces the preset's, so it also starts the harness's infrastructure modes
 * (WORKCELL_TEST_REDIS, WORKCELL_TEST_PG); the preset's global teardown stops them.
 */
export default async function recordStatements() {
  const directory = fileURLToPath(new URL('./statement-log/', import.meta.url));
  rmSync(directory, { recursive: true, force: true });
  process.env.DATABASE_STATEMENT_LOG = directory;
  await startHarnessModes();
}
