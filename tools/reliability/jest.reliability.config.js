// Not named jest.config.js, so that Nx infers no `test` target here: the suite is `npm run test:reliability`, apart
// from `npm test` (README, "The reliability suite"). One check at a time: each boots its own platform.
export default { displayName: '@workcell/reliability', preset: '../../jest.preset.js', maxWorkers: 1 };
