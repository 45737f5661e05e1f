/**
 * How the test harness runs the platform, chosen by the harness's own environment variables (docs/testing.md,
 * "Harness modes"); they configure the tests, not a service, so they are read here rather than in libs/config.
 * - WORKCELL_TEST_INSTANCES=2: every cell the e2e fixtures start runs two instances of each service (issue 16:
 *   nothing in one instance's memory may contradict another's).
 */
export interface HarnessMode {
  readonly instances: 1 | 2;
}

export function harnessMode(): HarnessMode {
  // eslint-disable-next-line no-restricted-properties -- the harness's own switches, not a service's configuration
  const { WORKCELL_TEST_INSTANCES: instances } = process.env;
  if (instances !== undefined && instances !== '1' && instances !== '2') throw new Error(`WORKCELL_TEST_INSTANCES must be 1 or 2, not ${instances}`);
  return { instances: instances === '2' ? 2 : 1 };
}
