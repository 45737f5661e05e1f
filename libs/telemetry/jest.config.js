export default { displayName: '@workcell/telemetry', preset: '../../jest.preset.js' };
