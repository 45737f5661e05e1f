/**
 * The harness's infrastructure modes (libs/testing harness.ts, docs/scale-out.md): WORKCELL_TEST_REDIS=cluster
 * (and WORKCELL_TEST_PG=pgbouncer) start their service once for this jest run; its variables go into the
 * environment the test processes inherit. Without a mode nothing is loaded, so a project that does not build
 * libs/testing still runs.
 */
export default async function globalSetup() {
  if (!process.env.WORKCELL_TEST_REDIS && !process.env.WORKCELL_TEST_PG) return;
  const { startHarnessModes } = await import('./libs/testing/dist/harness.js');
  const services = await startHarnessModes(process.env);
  globalThis.workcellHarness = services;
  for (const service of services) Object.assign(process.env, service.env);
}
