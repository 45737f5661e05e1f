/** Stops what jest.global-setup.js started. */
export default async function globalTeardown() {
  await Promise.all((globalThis.workcellHarness ?? []).map((service) => service.stop()));
}
